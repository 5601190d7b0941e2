import { niceAxis } from '../../lib/ticks';
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

/** The axes' ticks come from lib/ticks, shared by every chart: whole clock steps and 1-2-5 value steps. */
export { timeTicks } from '../../lib/ticks';

/** 0 and about 4 round steps up to at least `max`. */
export function valueTicks(max: number): number[] {
  return niceAxis(max, 'count').ticks;
}
