import { describe, expect, it } from 'vitest';
import { appendPoint, type SeriesPoint } from './series';

const pt = (t: number): SeriesPoint => ({ t, ops: t, memory: t });

describe('appendPoint', () => {
  it('forgets points older than the window', () => {
    let s: SeriesPoint[] = [];
    for (let t = 0; t <= 5000; t += 1000) s = appendPoint(s, pt(t), 2000, 100);
    expect(s.map((p) => p.t)).toEqual([3000, 4000, 5000]);
  });

  it('never holds more than max points', () => {
    let s: SeriesPoint[] = [];
    for (let t = 0; t < 50; t++) s = appendPoint(s, pt(t), 1_000_000, 10);
    expect(s).toHaveLength(10);
    expect(s[0]?.t).toBe(40);
  });

  it('ignores a snapshot it has already seen', () => {
    const s = appendPoint([pt(1), pt(2)], pt(2), 1000, 10);
    expect(s.map((p) => p.t)).toEqual([1, 2]);
  });
});
