import { describe, expect, it } from 'vitest';
import { chartRows, decimateRows, redrawEveryMs, type ChartRow } from './chartRows';
import type { NodePoint } from './timeSeries';

const p = (t: number, ops: number | null): NodePoint => ({ t, ops, mem: null, clients: null, netIn: null, netOut: null, lag: null });
const OPTS = { from: 0, toleranceMs: 400, gapMs: 3000, maxRows: 1000 };

describe('chart rows', () => {
  it('puts one tick of every node in one row keyed by time, a column per node', () => {
    const rows = chartRows(
      [
        { key: 'n0', points: [p(1000, 1), p(2000, 2)], metric: 'ops' },
        { key: 'n1', points: [p(1000, 10), p(2000, 20)], metric: 'ops' },
      ],
      OPTS,
    );
    expect(rows).toEqual([
      { t: 1000, n0: 1, n1: 10 },
      { t: 2000, n0: 2, n1: 20 },
    ]);
  });

  it('groups polls a few milliseconds apart into the same row', () => {
    const rows = chartRows(
      [
        { key: 'n0', points: [p(1000, 1), p(2000, 2)], metric: 'ops' },
        { key: 'n1', points: [p(1012, 10), p(2009, 20)], metric: 'ops' },
      ],
      OPTS,
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual({ t: 2000, n0: 2, n1: 20 });
  });

  it('keeps null where a node was down, so the line has a gap', () => {
    const rows = chartRows([{ key: 'n0', points: [p(1000, 1), p(2000, null), p(3000, 3)], metric: 'ops' }], OPTS);
    expect(rows.map((r) => r.n0)).toEqual([1, null, 3]);
  });

  it('breaks a line where its node was silent for longer than the gap', () => {
    const rows = chartRows([{ key: 'n0', points: [p(1000, 1), p(9000, 2)], metric: 'ops' }], OPTS);
    expect(rows.map((r) => r.n0)).toEqual([1, null, 2]);
  });

  it('holds a value where a node polled out of step with the row, not before it started', () => {
    const rows = chartRows(
      [
        { key: 'n0', points: [p(1000, 1), p(2000, 2), p(3000, 3)], metric: 'ops' },
        { key: 'n1', points: [p(2500, 5), p(3500, 6)], metric: 'ops' },
      ],
      OPTS,
    );
    const n1 = rows.map((r) => r.n1);
    expect(rows.map((r) => r.t)).toEqual([1000, 2000, 2500, 3000, 3500]);
    expect(n1).toEqual([undefined, undefined, 5, 5, 6]);
  });

  it('leaves out points before `from`', () => {
    const rows = chartRows([{ key: 'n0', points: [p(1000, 1), p(2000, 2)], metric: 'ops' }], { ...OPTS, from: 1500 });
    expect(rows).toEqual([{ t: 2000, n0: 2 }]);
  });

  it('thins rows down keeping spikes and outages', () => {
    const rows: ChartRow[] = Array.from({ length: 100 }, (_, i) => ({ t: i, n0: i === 37 ? 999 : 1, n1: i === 80 ? null : 2 }));
    const thin = decimateRows(rows, ['n0', 'n1'], 10);
    expect(thin).toHaveLength(10);
    expect(Math.max(...thin.map((r) => r.n0 ?? 0))).toBe(999);
    expect(thin.filter((r) => r.n1 === null)).toHaveLength(1);
    expect(thin[0]?.t).toBe(0);
  });
  it('redraws charts every poll for short windows, less often when a poll is under a pixel', () => {
    expect(redrawEveryMs(60_000, 1000)).toBe(1000);
    expect(redrawEveryMs(15 * 60_000, 1000)).toBe(2000);
  });
});
