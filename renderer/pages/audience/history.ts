import { daysInRange, STRATEGY_NAMES, type AudienceReport, type StrategyName } from '../../../app/schemas/audience';
import { formatCount, formatLatency } from '../../lib/format';
import { bestOf, formatTimes, ran } from './results';

/** A saved run in the comparison table, as displayed. */
export interface HistoryRow {
  id: string;
  /** "2024-05-01" and "10:00:00" (UTC, as the server stamped it). */
  date: string;
  time: string;
  where: string;
  range: string;
  target: string;
  audienceSize: string;
  /** The fastest strategy's p50 and its name; "—" and "" when none ran. */
  bestMs: string;
  bestName: string;
  /** Each strategy's p50, "skipped", or "—" when it was not asked for. */
  p50: Record<StrategyName, string>;
  countsMatch: boolean;
}

export function rangeText(from: string, to: string): string {
  const n = daysInRange(from, to);
  return `${from} → ${to} (${formatCount(n)} day${n === 1 ? '' : 's'})`;
}

/** An ISO time as "2024-05-01 10:00:00" (UTC, as the server stamped it). */
export function whenText(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}

export function historyRow(r: AudienceReport): HistoryRow {
  const best = bestOf(r.strategies);
  const p50 = Object.fromEntries(STRATEGY_NAMES.map((name) => [name, '—'])) as Record<StrategyName, string>;
  for (const s of r.strategies) p50[s.name] = ran(s) ? formatLatency(s.p50Ms) : 'skipped';
  const [date = '', time = ''] = whenText(r.finishedAt).split(' ');
  return {
    id: r.id,
    date,
    time,
    where: r.normalized === '' ? r.where : r.normalized,
    range: rangeText(r.from, r.to),
    target: `${r.address} db${r.db}`,
    audienceSize: formatCount(r.audienceSize),
    bestMs: best === undefined ? '—' : formatLatency(best.p50Ms),
    bestName: best?.name ?? '',
    p50,
    countsMatch: r.countsMatch,
  };
}

/** Tick a run to compare; a third tick lets go of the earliest of the two. */
export function pickTwo(picked: readonly string[], id: string): string[] {
  return picked.includes(id) ? picked.filter((p) => p !== id) : [...picked, id].slice(-2);
}

/** One line of two runs side by side. */
export interface PairRow {
  label: string;
  a: string;
  b: string;
  /** How B compares with A, when both have the figure. */
  change: string;
}

function change(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || a <= 0 || b <= 0) return '';
  if (Math.abs(b - a) / a < 0.005) return 'same';
  return b > a ? `${formatTimes(b / a)} slower` : `${formatTimes(a / b)} faster`;
}

/** Two runs, older first (A), with every strategy's p50 and how the newer (B) compares. */
export function comparePair(x: AudienceReport, y: AudienceReport): { a: AudienceReport; b: AudienceReport; rows: PairRow[] } {
  const [a, b] = x.finishedAt <= y.finishedAt ? [x, y] : [y, x];
  const rows: PairRow[] = [
    { label: 'where', a: historyRow(a).where, b: historyRow(b).where, change: a.normalized === b.normalized ? 'same' : 'differs' },
    { label: 'range', a: rangeText(a.from, a.to), b: rangeText(b.from, b.to), change: a.from === b.from && a.to === b.to ? 'same' : 'differs' },
    { label: 'server', a: `${a.address} db${a.db}`, b: `${b.address} db${b.db}`, change: '' },
    { label: 'trials (K) · warm-up', a: `${a.trials} · ${a.warmup}`, b: `${b.trials} · ${b.warmup}`, change: '' },
    { label: 'audience size', a: formatCount(a.audienceSize), b: formatCount(b.audienceSize), change: a.audienceSize === b.audienceSize ? 'same' : 'differs' },
  ];
  for (const name of STRATEGY_NAMES) {
    const sa = a.strategies.find((s) => s.name === name);
    const sb = b.strategies.find((s) => s.name === name);
    if (sa === undefined && sb === undefined) continue;
    const p50 = (s: typeof sa) => (s === undefined ? undefined : ran(s) ? s.p50Ms : undefined);
    const text = (s: typeof sa) => (s === undefined ? '—' : ran(s) ? formatLatency(s.p50Ms) : 'skipped');
    rows.push({ label: `${name} p50`, a: text(sa), b: text(sb), change: change(p50(sa), p50(sb)) });
  }
  return { a, b, rows };
}
