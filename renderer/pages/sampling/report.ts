import type { KeyType, MemoryInterval, SamplingReport } from '../../../app/schemas/sampling';
import { formatBytes, formatCompact, formatCount, formatDuration } from '../../lib/format';
import type { HBar } from '../../components/charts/chartParts';
import type { Axis } from '../../lib/ticks';

type TypeRow = SamplingReport['types'][number];
type Share = Pick<TypeRow, 'percent' | 'ciLow' | 'ciHigh'>;
type Histogram = SamplingReport['sizeHistograms'][number];
type TtlBucket = SamplingReport['ttl'][number]['bucket'];
type Namespace = SamplingReport['namespaces'][number];

/** The report's shares are percentages (0..100); this is "41.2 %". */
export function formatShare(percent: number): string {
  return Number.isFinite(percent) ? `${percent.toFixed(1)} %` : '—';
}

/** Half the width of the 95% interval, in percentage points: what "±" means. */
export function ciHalfWidth(s: Share): number {
  return Math.max(s.percent - s.ciLow, s.ciHigh - s.percent, 0);
}

/** "±1.3 %" for a sample; a census counts every key, so its shares are exact: "". */
export function formatCi(s: Share): string {
  const half = ciHalfWidth(s);
  if (half === 0) return '';
  return `±${half < 0.1 ? half.toFixed(2) : half.toFixed(1)} %`;
}

/** The interval as the table shows it: "38.1–44.3 %". */
export function formatCiRange(s: Share): string {
  if (ciHalfWidth(s) === 0) return 'exact';
  return `${s.ciLow.toFixed(1)}–${s.ciHigh.toFixed(1)} %`;
}

/** A sampled memory figure's 95% interval: "1.2 MiB – 1.5 MiB", "exact", or "not estimable". */
export function formatMemoryInterval(i: MemoryInterval): string {
  if ('notEstimable' in i) return 'not estimable';
  if (i.low === i.high) return 'exact';
  return `${formatBytes(i.low)} – ${formatBytes(i.high)}`;
}

/** Why, for a tooltip: the interval's meaning, or the reason there is none. */
export function memoryIntervalTitle(i: MemoryInterval): string {
  if ('notEstimable' in i) return `No interval: ${i.notEstimable}`;
  return `95% confidence interval of the estimate${i.note === undefined ? '' : ` (${i.note})`}`;
}

/** Whiskers below and above `value` for a bar chart; none when there is no interval. */
export function memoryErr(value: number, i: MemoryInterval): [number, number] | undefined {
  if ('notEstimable' in i || i.low === i.high) return undefined;
  return [Math.max(0, value - i.low), Math.max(0, i.high - value)];
}

const BINARY = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** A power of two of bytes, exactly: 512 -> "512 B", 1024 -> "1 KiB", 3 MiB + 1 -> formatBytes. */
export function formatBinary(bytes: number): string {
  let v = bytes;
  let unit = 0;
  while (v >= 1024 && unit < BINARY.length - 1 && Number.isInteger(v / 1024)) {
    v /= 1024;
    unit += 1;
  }
  return Number.isInteger(v) && v < 1024 ? `${v} ${BINARY[unit]}` : formatBytes(bytes);
}

/** An element count on an axis: exact up to 9,999 ("4,096"), compact above ("16k"). */
function formatElements(n: number): string {
  return n < 10_000 ? formatCount(n) : formatCompact(n);
}

export type HistogramUnit = 'bytes' | 'elements';

export interface HistogramBar {
  le: number;
  /** The axis label: "≤ 1 KiB", "≤ 64", "0". */
  label: string;
  /** The bucket in full, for the tooltip: "513 B – 1 KiB". */
  range: string;
  count: number;
}

function formatIn(unit: HistogramUnit, n: number): string {
  return unit === 'bytes' ? formatBinary(n) : formatElements(n);
}

/** "≤ 1 KiB" for a bucket's upper bound; the zero bucket is "0". */
export function bucketLabel(le: number, unit: HistogramUnit): string {
  return le === 0 ? '0' : `≤ ${formatIn(unit, le)}`;
}

function bucketRange(le: number, unit: HistogramUnit): string {
  if (le === 0) return unit === 'bytes' ? '0 B' : 'empty';
  if (le === 1) return `${formatIn(unit, 1)}`;
  // Buckets hold (le/2, le]: for whole numbers that is le/2 + 1 .. le.
  return `${formatIn(unit, le / 2 + 1)} – ${formatIn(unit, le)}`;
}

/**
 * A histogram's bars from its smallest to its largest non-empty bucket, with the
 * empty powers of two in between drawn as zero (a gap is information: nothing
 * between 4 KiB and 1 MiB). The zero bucket leads when it holds anything.
 */
export function histogramBars(h: Histogram | undefined, unit: HistogramUnit): HistogramBar[] {
  if (h === undefined) return [];
  const counts = new Map<number, number>();
  for (const b of h.buckets) if (b.count > 0) counts.set(b.le, (counts.get(b.le) ?? 0) + b.count);
  const bounds = [...counts.keys()].filter((le) => le > 0);
  const bars: HistogramBar[] = [];
  const zero = counts.get(0);
  if (zero !== undefined) bars.push({ le: 0, label: bucketLabel(0, unit), range: bucketRange(0, unit), count: zero });
  if (bounds.length === 0) return bars;
  const max = Math.max(...bounds);
  for (let le = Math.min(...bounds); le <= max; le *= 2) {
    bars.push({ le, label: bucketLabel(le, unit), range: bucketRange(le, unit), count: counts.get(le) ?? 0 });
  }
  return bars;
}

/** Types that have a histogram with anything in it, most keys first (the report's order). */
export function histogramTypes(report: SamplingReport): KeyType[] {
  const has = new Set([...report.sizeHistograms, ...report.lengthHistograms].filter((h) => h.buckets.some((b) => b.count > 0)).map((h) => h.type));
  const byCount = [...report.types].sort((a, b) => b.count - a.count).map((t) => t.type);
  return [...byCount.filter((t) => has.has(t)), ...[...has].filter((t) => !byCount.includes(t))];
}

/** What "length" means per type, for axis titles and table headers. */
export const LENGTH_OF: Record<KeyType, string> = {
  string: 'bytes (STRLEN)',
  hash: 'fields (HLEN)',
  list: 'elements (LLEN)',
  set: 'members (SCARD)',
  zset: 'members (ZCARD)',
  stream: 'entries (XLEN)',
  other: 'elements',
};

/** Strings' "length" is bytes; every other type counts elements. */
export function lengthUnit(type: KeyType): HistogramUnit {
  return type === 'string' ? 'bytes' : 'elements';
}

export const TTL_LABELS = {
  none: 'no TTL',
  /** No key TTL, but hash fields that expire (hash-field expiry). */
  fields: 'fields expire',
  lt1m: '< 1 min',
  lt1h: '1 min – 1 h',
  lt1d: '1 h – 1 day',
  longer: '> 1 day',
} as const satisfies Record<TtlBucket, string>;

const TTL_ORDER = Object.keys(TTL_LABELS) as TtlBucket[];

/** The TTL buckets in a fixed order, the missing ones as zero, so charts of two runs compare. */
export function ttlRows(report: SamplingReport): { bucket: TtlBucket; label: string; count: number; percent: number; ciLow: number; ciHigh: number }[] {
  return TTL_ORDER.map((bucket) => {
    const row = report.ttl.find((t) => t.bucket === bucket);
    return {
      bucket,
      label: TTL_LABELS[bucket],
      count: row?.count ?? 0,
      percent: row?.percent ?? 0,
      ciLow: row?.ciLow ?? 0,
      ciHigh: row?.ciHigh ?? 0,
    };
  });
}

/** A key's TTL as the tables show it: "none", "45s", "3h 4m". */
export function formatTtl(seconds: number): string {
  return seconds < 0 ? 'none' : formatDuration(seconds);
}

export type NamespaceMetric = 'memory' | 'count';

/** Prefixes biggest first by `metric` (ties by name), at most `limit`. */
export function topNamespaces(list: readonly Namespace[], metric: NamespaceMetric, limit: number): Namespace[] {
  return [...list].sort((a, b) => b[metric] - a[metric] || a.prefix.localeCompare(b.prefix)).slice(0, limit);
}

/** The depths the tree has, shallowest first: the levels the chart can show. */
export function namespaceDepths(all: readonly Namespace[]): number[] {
  return [...new Set(all.map((n) => n.depth))].sort((a, b) => a - b);
}

/** How many prefixes sit directly under each prefix ('' for the top level). */
export function childCounts(all: readonly Namespace[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const n of all) m.set(n.parent, (m.get(n.parent) ?? 0) + 1);
  return m;
}

/**
 * What to say when a run that ended has nothing to chart: the DB was empty, MATCH
 * found nothing, it was cancelled before the first key, or every key vanished
 * before it was probed. Undefined when there is something to show.
 */
export function emptyMessage(report: SamplingReport, state: 'running' | 'done' | 'cancelled'): { title: string; detail: string } | undefined {
  if (report.keysExamined > 0) return undefined;
  const db = `DB ${report.db}`;
  if (report.dbsize === 0) {
    return { title: `${db} is empty`, detail: 'DBSIZE is 0: there is nothing to sample. Pick another DB, or load data first.' };
  }
  if (state === 'cancelled') {
    return { title: 'Cancelled before any key was examined', detail: 'Start again with a shorter pause, or let it run longer.' };
  }
  if (report.match !== undefined) {
    return {
      title: `No key in ${db} matches ${report.match}`,
      detail: `SCAN MATCH walked the ${formatCount(report.dbsize)} keys of DBSIZE and none matched.`,
    };
  }
  return { title: `No key examined in ${db}`, detail: 'Every key the run found was gone before it could be measured (expired or deleted).' };
}

/** One colour per Redis type, the same in every chart and table. */
export { TYPE_COLORS } from '../../lib/typeColors';

/** A share as one bar of a chart: "61.2 % ±1.0" at the right, its interval as whiskers for a sample. */
export function shareBar(key: string, label: string, s: Share & { count: number }, color: string, sample: boolean): HBar {
  const ci = sample ? formatCi(s) : '';
  return {
    key,
    label,
    value: s.percent,
    figure: ci === '' ? formatShare(s.percent) : `${formatShare(s.percent)} ${ci.replace(/ %$/, '')}`,
    ...(sample ? { err: [s.percent - s.ciLow, s.ciHigh - s.percent] as [number, number] } : {}),
    color,
    detail: `${formatCount(s.count)} keys · ${formatShare(s.percent)}${sample ? ` (95% CI ${formatCiRange(s)})` : ''}`,
  };
}

/**
 * The ticks of a percentage axis: from 0 past the widest interval in even steps
 * (5, 10 or 25 points), so "0 20 40 70" never happens.
 */
export function shareAxis(rows: readonly { ciHigh: number; percent: number }[]): Axis {
  return { ticks: shareTicks(rows), format: (v) => `${v} %` };
}

/** The ticks of {@link shareAxis}. */
export function shareTicks(rows: readonly { ciHigh: number; percent: number }[]): number[] {
  const top = Math.min(100, Math.max(0, ...rows.map((r) => Math.max(r.ciHigh, r.percent))));
  const step = top <= 20 ? 5 : top <= 50 ? 10 : 25;
  const end = Math.max(step, Math.ceil(top / step) * step);
  return Array.from({ length: end / step + 1 }, (_, i) => i * step);
}
