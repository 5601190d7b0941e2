import type { AudienceParseResult } from '../../../app/schemas/audience';
import { int, type AudienceLink } from './audienceLink';
import { formatExpr, termsOf, type Term } from './expression';
import type { LayoutKeys } from './layoutKeys';
import { ParseFailure } from './parseFailure';
import { parseWhere } from './parseWhere';
import { planOf } from './plan';
import { readOnlyStrategies } from './readOnlyTrial';

/** The builder's live check of a typed expression: canonical form and terms, or where it breaks. */
export function describeWhere(where: string): AudienceParseResult & { parsed?: Term[] } {
  try {
    const expr = parseWhere(where);
    const terms = termsOf(expr);
    const readOnly = readOnlyStrategies(planOf(expr));
    return { valid: true, normalized: formatExpr(expr), terms: terms.map(({ name, value }) => ({ name, value })), unknown: [], readOnly, parsed: terms };
  } catch (e) {
    if (e instanceof ParseFailure) return { valid: false, terms: [], error: e.toInfo(), unknown: [] };
    throw e;
  }
}

/** Terms that no layout has a key for: one EXISTS per term and layout, pipelined. */
export async function unknownTerms(link: AudienceLink, keys: LayoutKeys, terms: Term[]): Promise<Term[]> {
  if (terms.length === 0) return [];
  const r = (
    await link.call(
      terms.flatMap((t) => [
        ['EXISTS', keys.attr('bitmap', t)],
        ['EXISTS', keys.attr('set', t)],
      ]),
    )
  ).map(int);
  return terms.filter((_, i) => r[2 * i] === 0 && r[2 * i + 1] === 0);
}
