import { describe, expect, it } from 'vitest';
import { appendOps, EMPTY_SERIES, etaOf, fractionOf, type ProgressEvent } from './progress';

const p = (at: number, bytesRead: number, bytesTotal: number | undefined, etaSeconds?: number): ProgressEvent => ({
  kind: 'progress',
  at,
  records: 0,
  commands: 0,
  replies: 0,
  errors: 0,
  bytesRead,
  opsPerSec: 0,
  recordsPerSec: 0,
  ...(bytesTotal === undefined ? {} : { bytesTotal }),
  ...(etaSeconds === undefined ? {} : { etaSeconds }),
});

describe('progress math', () => {
  it('gives the share of bytes read, or nothing when the size is unknown', () => {
    expect(fractionOf(p(0, 250, 1000))).toBe(0.25);
    expect(fractionOf(p(0, 250, undefined))).toBeUndefined();
    expect(fractionOf(p(0, 5, 0))).toBeUndefined();
    expect(fractionOf(p(0, 1200, 1000))).toBe(1);
  });

  it("prefers the server's ETA and otherwise extrapolates from the bytes read", () => {
    expect(etaOf(p(10_000, 500, 1000, 42), 0)).toBe(42);
    // Half the file in 10 s: another 10 s to go.
    expect(etaOf(p(10_000, 500, 1000), 0)).toBe(10);
    expect(etaOf(p(10_000, 0, 1000), 0)).toBeUndefined();
    expect(etaOf(p(10_000, 500, undefined), 0)).toBeUndefined();
  });
});

describe('appendOps', () => {
  it('ignores a point that is not newer than the last', () => {
    const s = appendOps(appendOps(EMPTY_SERIES, { t: 5, ops: 1 }, 10), { t: 5, ops: 2 }, 10);
    expect(s.points).toEqual([{ t: 5, ops: 1 }]);
  });

  it('thins out when full so the series still spans the whole load', () => {
    let s = EMPTY_SERIES;
    for (let t = 0; t < 1000; t++) s = appendOps(s, { t: t * 100, ops: t }, 50);
    expect(s.points.length).toBeLessThanOrEqual(50);
    expect(s.points[0]?.t).toBeLessThan(5000);
    expect(s.points.at(-1)?.t).toBeGreaterThan(90_000);
    const ts = s.points.map((q) => q.t);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
  });
});
