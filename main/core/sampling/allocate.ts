/**
 * Split `samples` draws over masters in proportion to their DBSIZE, rounding by
 * largest remainder so the parts add up to `samples` exactly.
 *
 * RANDOMKEY on a cluster node draws only from that node's keys, so drawing the
 * same number from each master would over-weight the small ones. Drawn in
 * proportion to DBSIZE (stratified, proportional allocation), every key of the
 * cluster has the same chance of being drawn, so the pooled percentages are
 * unbiased, and their Wilson interval, computed as for one simple sample, is if
 * anything a little wide: stratifying never adds variance.
 */
export function allocateSamples(samples: number, dbsizes: readonly number[]): number[] {
  const total = dbsizes.reduce((a, b) => a + b, 0);
  if (total === 0) return dbsizes.map(() => 0);
  const exact = dbsizes.map((d) => (samples * d) / total);
  const parts = exact.map(Math.floor);
  let left = samples - parts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    parts[i] = (parts[i] as number) + 1;
    left--;
  }
  return parts;
}
