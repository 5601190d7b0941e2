import type { MetricKey, NodePoint } from './timeSeries';

/** One line of a chart: `key` becomes the row column (never an address: Recharts reads dots as paths). */
export interface ChartColumn {
  key: string;
  points: readonly NodePoint[];
  metric: MetricKey;
}

export type ChartRow = { t: number } & Record<string, number | null>;

export interface RowOptions {
  /** Only points at or after this time. */
  from: number;
  /** Points of different nodes closer than this share a row (polls of one tick land a few ms apart). */
  toleranceMs: number;
  /** A node silent for longer than this gets a break in its line (e.g. the stream was away). */
  gapMs: number;
  /** Rows beyond this are merged into buckets: a chart is a few hundred pixels wide anyway. */
  maxRows: number;
}

interface Entry {
  t: number;
  key: string;
  v: number | null;
}

function entriesOf(columns: readonly ChartColumn[], from: number, gapMs: number): Entry[] {
  const out: Entry[] = [];
  for (const c of columns) {
    let prev: number | undefined;
    for (const p of c.points) {
      if (p.t < from) continue;
      if (prev !== undefined && p.t - prev > gapMs) out.push({ t: prev + 1, key: c.key, v: null });
      out.push({ t: p.t, key: c.key, v: p[c.metric] });
      prev = p.t;
    }
  }
  return out.sort((a, b) => a.t - b.t);
}

/**
 * A column missing from a row only because its node's poll fell into a neighbouring
 * row would read as a gap; hold the previous value there, inside the node's span only.
 */
function holdForward(rows: ChartRow[], keys: readonly string[]): void {
  for (const key of keys) {
    let lastIdx = -1;
    for (let i = rows.length - 1; i >= 0; i--) {
      if (rows[i]?.[key] !== undefined) {
        lastIdx = i;
        break;
      }
    }
    let held: number | null | undefined;
    for (let i = 0; i < lastIdx; i++) {
      const row = rows[i];
      if (row === undefined) continue;
      const v = row[key];
      if (v === undefined) {
        if (typeof held === 'number') row[key] = held;
      } else held = v;
    }
  }
}

/**
 * Bucket rows down to `max`: per column the bucket's maximum (spikes survive), or
 * null when the node was down anywhere in it (outages survive too).
 */
export function decimateRows(rows: readonly ChartRow[], keys: readonly string[], max: number): ChartRow[] {
  if (rows.length <= max || max < 1) return rows as ChartRow[];
  const out: ChartRow[] = [];
  const size = rows.length / max;
  for (let b = 0; b < max; b++) {
    const lo = Math.floor(b * size);
    const hi = Math.min(rows.length, Math.floor((b + 1) * size));
    const first = rows[lo];
    if (first === undefined) continue;
    const row: ChartRow = { t: first.t };
    for (const key of keys) {
      let seen = false;
      let gap = false;
      let m = -Infinity;
      for (let i = lo; i < hi; i++) {
        const v = rows[i]?.[key];
        if (v === undefined) continue;
        seen = true;
        if (v === null) gap = true;
        else m = Math.max(m, v);
      }
      if (seen) row[key] = gap ? null : m;
    }
    out.push(row);
  }
  return out;
}

/**
 * Chart rows keyed by time with a column per line, from per-node series whose
 * polls need not share timestamps exactly.
 */
export function chartRows(columns: readonly ChartColumn[], opts: RowOptions): ChartRow[] {
  const rows: ChartRow[] = [];
  let row: ChartRow | undefined;
  for (const e of entriesOf(columns, opts.from, opts.gapMs)) {
    if (row === undefined || e.t - row.t > opts.toleranceMs || row[e.key] !== undefined) {
      row = { t: e.t };
      rows.push(row);
    }
    row[e.key] = e.v;
  }
  const keys = columns.map((c) => c.key);
  holdForward(rows, keys);
  return decimateRows(rows, keys, opts.maxRows);
}

/**
 * How often the charts redraw: every poll, unless the window is so wide that a
 * poll moves the lines by less than a pixel (15 min over ~450 px is 2 s a pixel).
 */
export function redrawEveryMs(windowMs: number, pollMs: number): number {
  return Math.max(pollMs, Math.floor(windowMs / 450 / pollMs) * pollMs);
}
