import { describe, expect, it } from 'vitest';
import { MIN_COUNT, ScanCount } from './scanCount';

describe('ScanCount', () => {
  it('starts well under the threshold, halves at once on a slow call, grows a quarter only after calm calls', () => {
    const c = new ScanCount({ us: 2000, assumed: false }, 100_000);
    // 2 ms × 0.3 / 5 µs a key.
    expect(c.next(100_000)).toBe(120);
    c.observe(120, 0.7); // over 30% of 2 ms
    expect(c.next(100_000)).toBe(60);
    for (let i = 0; i < 3; i++) c.observe(60, 0.1);
    expect(c.next(100_000)).toBe(60);
    c.observe(60, 0.1);
    expect(c.next(100_000)).toBe(75);
    // A call between 15% and 30% neither grows nor shrinks it, and restarts the calm count.
    c.observe(75, 0.4);
    for (let i = 0; i < 3; i++) c.observe(75, 0.1);
    expect(c.next(100_000)).toBe(75);
    for (let i = 0; i < 20; i++) c.observe(10, 50);
    expect(c.next(100_000)).toBe(MIN_COUNT);
  });

  it("never passes the pacer's batch or its own maximum; the slowlog off leaves the maximum", () => {
    const c = new ScanCount({ us: 10_000, assumed: true }, 1000);
    expect(c.next(1000)).toBe(600);
    expect(c.next(200)).toBe(200);
    expect(new ScanCount({ us: null, assumed: false }, 1000).next(1000)).toBe(1000);
    expect(new ScanCount({ us: 0, assumed: false }, 1000).next(1000)).toBe(MIN_COUNT);
  });
});
