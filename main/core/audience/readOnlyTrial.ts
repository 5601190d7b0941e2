import { AppError } from '../../../app/errors';
import { STRATEGY_NAMES, type AudienceTrialOptions, type StrategyName } from '../../../app/schemas/audience';
import type { AudienceLink } from './audienceLink';
import { daysBetween } from './days';
import { termsOf } from './expression';
import { LayoutKeys } from './layoutKeys';
import { parseWhere } from './parseWhere';
import { planOf, type Plan } from './plan';
import { inspectLayouts } from './preflight';
import { READ_ONLY_REASON } from './strategy';
import { STRATEGIES } from './strategies';

/** The strategies that answer this plan without writing anything, in trial order. */
export function readOnlyStrategies(plan: Plan): StrategyName[] {
  return STRATEGY_NAMES.filter((n) => !STRATEGIES[n].writes(plan));
}

type TrialAsked = Pick<AudienceTrialOptions, 'where' | 'from' | 'to' | 'layout' | 'strategies'>;

/**
 * An analyst's trial, decided before it starts: it may run when at least one strategy asked
 * for reads in place and finds its layout's data on the server (read with EXISTS only);
 * otherwise it is refused here, with each strategy's reason, and no job is made. The trial then
 * runs read-only (runAudience's `readOnly`), skipping the others with the same reasons.
 */
export async function checkReadOnlyTrial(link: AudienceLink, o: TrialAsked): Promise<void> {
  const expr = parseWhere(o.where);
  const plan = planOf(expr);
  const keys = new LayoutKeys(o.layout);
  const facts = await inspectLayouts(link, keys, termsOf(expr), daysBetween(o.from, o.to), plan);
  const asked = STRATEGY_NAMES.filter((n) => o.strategies.includes(n));
  const reasons = asked.map((n) => {
    const s = STRATEGIES[n];
    return { n, why: s.layouts.map((l) => facts.missing[l]).find((x) => x !== undefined) ?? (s.writes(plan) ? READ_ONLY_REASON : undefined) };
  });
  if (reasons.some((r) => r.why === undefined)) return;
  const sets = asked.includes('sets');
  throw new AppError(
    'FORBIDDEN',
    `An analyst's trial only reads, and nothing here can: ${reasons.map((r) => `${r.n}: ${r.why ?? ''}`).join('; ')}. ` +
      (sets
        ? 'Only sets reads in place, for one term or terms joined by AND; ask an ops user to run this one.'
        : 'Choose sets, which reads in place for one term or terms joined by AND.'),
    sets ? 'where' : 'strategies',
  );
}
