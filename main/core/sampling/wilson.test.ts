import { describe, expect, it } from 'vitest';
import { share, wilson } from './wilson';

/** A seeded generator (mulberry32): the coverage check below draws the same numbers every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('wilson', () => {
  it('matches the textbook interval for 8 of 10 (49.0% to 94.3%)', () => {
    const { low, high } = wilson(8, 10);
    expect(low).toBeCloseTo(49.02, 1);
    expect(high).toBeCloseTo(94.33, 1);
  });

  it('stays inside 0..100 and is not degenerate at 0 or n successes', () => {
    expect(wilson(0, 10).low).toBe(0);
    expect(wilson(0, 10).high).toBeGreaterThan(20);
    expect(wilson(10, 10).high).toBeCloseTo(100, 6);
    expect(wilson(10, 10).low).toBeLessThan(80);
  });

  it('gives a rare type a lower bound above zero and an upper bound well above its share', () => {
    const { low, high } = wilson(3, 10_000);
    expect(low).toBeGreaterThan(0);
    expect(high).toBeGreaterThan(0.08);
  });

  it('covers the true share about 95% of the time', () => {
    const next = rng(42);
    const p = 0.13;
    const n = 400;
    let covered = 0;
    const runs = 2_000;
    for (let r = 0; r < runs; r++) {
      let x = 0;
      for (let i = 0; i < n; i++) if (next() < p) x++;
      const { low, high } = wilson(x, n);
      if (low <= p * 100 && p * 100 <= high) covered++;
    }
    expect(covered / runs).toBeGreaterThan(0.93);
    expect(covered / runs).toBeLessThan(0.975);
  });
});

describe('share', () => {
  it('is exact for a census: the interval is the percent itself', () => {
    expect(share(25, 200, true)).toEqual({ count: 25, percent: 12.5, ciLow: 12.5, ciHigh: 12.5 });
  });

  it('brackets a sample percent with its interval', () => {
    const s = share(25, 200, false);
    expect(s.percent).toBe(12.5);
    expect(s.ciLow).toBeLessThan(12.5);
    expect(s.ciHigh).toBeGreaterThan(12.5);
  });

  it('is all zeros for no keys (an empty DB), never NaN', () => {
    expect(share(0, 0, false)).toEqual({ count: 0, percent: 0, ciLow: 0, ciHigh: 0 });
    expect(share(0, 0, true)).toEqual({ count: 0, percent: 0, ciLow: 0, ciHigh: 0 });
  });
});
