import type { DayCount, Mismatch, StrategyName, StrategyResult } from '../../../app/schemas/audience';
import { formatBytes, formatCount, formatLatency } from '../../lib/format';
import type { HBar } from '../../components/charts/chartParts';

/** One colour per strategy, the same in every chart and table of the page. */
export const STRATEGY_COLORS: Record<StrategyName, string> = {
  'bitmap-lua': 'var(--series-1)',
  'bitmap-pipeline': 'var(--series-3)',
  sets: 'var(--series-2)',
  zunionstore: 'var(--series-5)',
};

export function ran(s: StrategyResult): boolean {
  return s.skipped === undefined && s.runs > 0;
}

/** The strategy with the lowest p50 among those that ran. */
export function bestOf(strategies: readonly StrategyResult[]): StrategyResult | undefined {
  let best: StrategyResult | undefined;
  for (const s of strategies) if (ran(s) && (best === undefined || s.p50Ms < best.p50Ms)) best = s;
  return best;
}

/** 7.25 -> "7.3×"; how many times slower than the best. */
export function formatTimes(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  return `${ratio.toFixed(ratio < 10 ? 1 : 0)}×`;
}

/** One row of the strategies table, as displayed. */
export interface StrategyRow {
  name: StrategyName;
  color: string;
  /** Why it did not run; the figures are then dashes. */
  skipped: string | undefined;
  runs: string;
  minMs: string;
  p50Ms: string;
  p95Ms: string;
  meanMs: string;
  serverMs: string;
  /** p50 over the best's: "1.0×" for the best itself. */
  vsBest: string;
  commands: string;
  bytesOut: string;
  bytesIn: string;
  audienceSize: string;
  matches: boolean | undefined;
}

export function strategyRows(strategies: readonly StrategyResult[]): StrategyRow[] {
  const best = bestOf(strategies);
  return strategies.map((s) => {
    const on = ran(s);
    const dash = (text: string) => (on ? text : '—');
    return {
      name: s.name,
      color: STRATEGY_COLORS[s.name],
      skipped: on ? undefined : (s.skipped ?? 'no timed run finished'),
      runs: dash(formatCount(s.runs)),
      minMs: dash(formatLatency(s.minMs)),
      p50Ms: dash(formatLatency(s.p50Ms)),
      p95Ms: dash(formatLatency(s.p95Ms)),
      meanMs: dash(formatLatency(s.meanMs)),
      serverMs: dash(formatLatency(s.serverMs)),
      vsBest: dash(best === undefined || best.p50Ms <= 0 ? '—' : formatTimes(s.p50Ms / best.p50Ms)),
      commands: dash(formatCount(s.commands)),
      bytesOut: dash(formatBytes(s.bytesOut)),
      bytesIn: dash(formatBytes(s.bytesIn)),
      audienceSize: dash(formatCount(s.audienceSize)),
      matches: on ? s.matches : undefined,
    };
  });
}

/** A latency without its unit, for a figure that says it once: "0.41". */
const bare = (ms: number) => formatLatency(ms).replace(/ ms$/, '');

/** p50 as the bar, min to p95 as its whiskers: the spread of the K runs at a glance. */
export function latencyBars(strategies: readonly StrategyResult[]): HBar[] {
  return strategies.filter(ran).map((s) => ({
    key: s.name,
    label: s.name,
    value: s.p50Ms,
    err: [Math.max(0, s.p50Ms - s.minMs), Math.max(0, s.p95Ms - s.p50Ms)],
    figure: `${formatLatency(s.p50Ms)} (${bare(s.minMs)}–${bare(s.p95Ms)})`,
    color: STRATEGY_COLORS[s.name],
    detail: `${s.name}: min ${formatLatency(s.minMs)} · p50 ${formatLatency(s.p50Ms)} · p95 ${formatLatency(s.p95Ms)} over ${formatCount(s.runs)} runs`,
  }));
}

/** Per-day counts for the line chart: the day as "01-15" on the axis, in full in the tooltip. */
export function dayPoints(days: readonly DayCount[]): { day: string; label: string; count: number }[] {
  return days.map((d) => ({ day: d.day, label: d.day.slice(5), count: d.count }));
}

/** A mismatch in words: which strategy, against which, where, and both figures. */
export function mismatchText(m: Mismatch): string {
  const where = m.day === undefined ? 'the audience size' : `the count on ${m.day}`;
  return `${m.strategy} gave ${formatCount(m.got)} for ${where}; ${m.reference} gave ${formatCount(m.expected)}`;
}
