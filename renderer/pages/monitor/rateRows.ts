import type { RatePoint } from './paneFeed';

export type RateRow = { t: number } & Record<string, number | null>;

/**
 * One row a second for the rate chart, a column per node and measure (`l0` the
 * node's lines/s, `d0` what this viewer was sent): every node's stats tick on
 * its own, so points are matched on the whole second they fall in.
 */
export function rateRows(columns: readonly { key: string; points: readonly RatePoint[] }[]): RateRow[] {
  const rows = new Map<number, RateRow>();
  for (const { key, points } of columns) {
    for (const p of points) {
      const t = Math.round(p.t / 1000) * 1000;
      let row = rows.get(t);
      if (row === undefined) {
        row = { t } as RateRow;
        rows.set(t, row);
      }
      row[`l${key}`] = p.lines;
      row[`d${key}`] = p.delivered;
    }
  }
  return [...rows.values()].sort((a, b) => a.t - b.t);
}

const TIME_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300];

/**
 * Axis ticks chosen here, not by Recharts: its own pick measures every new
 * label in the DOM (a forced layout on each redraw, and the labels of a
 * moving time axis are always new). About `count` ticks on whole steps.
 */
export function timeTicks(from: number, to: number, count = 6): number[] {
  if (!(to > from)) return [from];
  const stepMs = (TIME_STEPS_S.find((s) => ((to - from) / 1000) / s <= count) ?? 600) * 1000;
  const out: number[] = [];
  for (let t = Math.ceil(from / stepMs) * stepMs; t <= to; t += stepMs) out.push(t);
  return out;
}

/** 0 and about `count` round steps up to at least `max`: 1, 2 or 5 times a power of ten. */
export function valueTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * pow >= raw) ?? 10) * pow;
  const out: number[] = [];
  for (let v = 0; v < max + step; v += step) out.push(v);
  return out;
}
