/** Nearest-rank percentile of sorted values: the smallest value with at least p% at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

export interface TimingSummary {
  minMs: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function summarize(ms: readonly number[]): TimingSummary {
  const s = [...ms].sort((a, b) => a - b);
  const mean = s.length === 0 ? 0 : s.reduce((a, b) => a + b, 0) / s.length;
  return { minMs: round3(s[0] ?? 0), p50Ms: round3(percentile(s, 50)), p95Ms: round3(percentile(s, 95)), meanMs: round3(mean) };
}
