/** What the trial charts draw, from a run's variants and sweep: pure, so it is tested without Recharts. */
import type { Percentiles, SweepPoint, VariantName, VariantResult } from '../../../app/schemas/trials';
import { formatCount, formatSeconds } from '../../lib/format';
import type { HBar } from '../../components/charts/chartParts';
import { formatRatio } from './results';
import { VARIANT_NAMES } from './trialView';

const BASELINE_COLOR = 'var(--series-gray)';
const COLORS: readonly string[] = ['var(--series-1)', 'var(--series-3)', 'var(--series-2)', 'var(--series-5)'];

/** Ops/s per variant as horizontal bars: the baseline (the first, when ratios exist) grey, the others in turn. */
export function opsBars(variants: readonly VariantResult[]): HBar[] {
  const base = variants[0];
  const baseName = base === undefined ? '' : VARIANT_NAMES[base.variant];
  let next = 0;
  return variants.map((v, i) => {
    const baseline = i === 0 && v.ratio !== undefined;
    const color = baseline ? BASELINE_COLOR : (COLORS[next++ % COLORS.length] ?? BASELINE_COLOR);
    const compared = v.ratio !== undefined && !baseline;
    return {
      key: v.variant,
      label: VARIANT_NAMES[v.variant],
      value: v.opsPerSec,
      figure: `${formatCount(v.opsPerSec)}/s${compared ? ` · ${formatRatio(v.ratio)}` : ''}`,
      color,
      detail: `${formatCount(v.ops)} in ${formatSeconds(v.seconds)}: ${formatCount(v.opsPerSec)} ops/s${compared ? ` (${formatRatio(v.ratio)} ${baseName})` : ''}`,
    };
  });
}

/** The sweep as a line chart's rows: ops/s by MULTI size, sent plain and pipelined. */
export function sweepSeries(sweep: readonly SweepPoint[]): { size: string; plain: number; pipelined: number; ratio: number }[] {
  return [...sweep]
    .sort((a, b) => a.size - b.size)
    .map((p) => ({ size: String(p.size), plain: p.plain.opsPerSec, pipelined: p.pipelined.opsPerSec, ratio: p.ratio }));
}

const PERCENTILE_LABELS: readonly [keyof Percentiles, string][] = [
  ['p50Ms', 'p50'],
  ['p95Ms', 'p95'],
  ['p99Ms', 'p99'],
  ['maxMs', 'max'],
];

/** The load trial's latency as grouped bars: a row per percentile, a value per command (keyed by variant). */
export function latencySeries(variants: readonly VariantResult[]): {
  rows: Record<string, number | string>[];
  series: { key: VariantName; name: string; color: string }[];
} {
  const measured = variants.filter((v) => v.latency !== undefined);
  const rows = PERCENTILE_LABELS.map(([key, label]) => {
    const row: Record<string, number | string> = { percentile: label };
    for (const v of measured) if (v.latency !== undefined) row[v.variant] = v.latency[key];
    return row;
  });
  const series = measured.map((v, i) => ({ key: v.variant, name: VARIANT_NAMES[v.variant], color: COLORS[i % COLORS.length] ?? BASELINE_COLOR }));
  return { rows, series };
}

/**
 * A log axis for rates that span decades (a plain MULTI of 1 against a pipelined
 * one of 100): the powers of ten around the values, at least two of them.
 */
export function logTicks(values: readonly number[]): number[] {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return [1, 10];
  const lo = Math.floor(Math.log10(Math.min(...positive)));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...positive))));
  return Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i));
}
