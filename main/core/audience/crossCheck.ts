import type { Mismatch, StrategyResult } from '../../../app/schemas/audience';

/**
 * Compares every strategy that ran with the first one: the size, then each day. Every
 * difference is listed (never averaged away), and each result says whether it matched.
 */
export function crossCheck(results: StrategyResult[]): { mismatches: Mismatch[]; results: StrategyResult[] } {
  const ran = results.filter((r) => r.skipped === undefined);
  const ref = ran[0];
  if (ref === undefined) return { mismatches: [], results };
  const mismatches: Mismatch[] = [];
  const checked = results.map((r) => {
    if (r.skipped !== undefined || r === ref) return r;
    const before = mismatches.length;
    if (r.audienceSize !== ref.audienceSize) {
      mismatches.push({ strategy: r.name, reference: ref.name, expected: ref.audienceSize, got: r.audienceSize });
    }
    ref.days.forEach((d, i) => {
      const got = r.days[i]?.count ?? -1;
      if (got !== d.count) mismatches.push({ strategy: r.name, reference: ref.name, day: d.day, expected: d.count, got });
    });
    return { ...r, matches: mismatches.length === before };
  });
  return { mismatches, results: checked };
}
