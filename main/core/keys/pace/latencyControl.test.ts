import { describe, expect, it } from 'vitest';
import { countFor, LatencyControl, MAX_PAUSE_MS, quantile } from './latencyControl';

describe('LatencyControl', () => {
  it('doubles the pause on each sample over idle + budget, up to the cap, and lets it decay under the line', () => {
    const c = new LatencyControl(0.3, 2);
    let t = 0;
    c.sample(0.5, false, (t += 10));
    expect(c.pauseMs).toBe(0);
    c.sample(2.5, false, (t += 10));
    const first = c.pauseMs;
    expect(first).toBeGreaterThan(0);
    c.sample(2.5, false, (t += 10));
    expect(c.pauseMs).toBe(first * 2);
    for (let i = 0; i < 30; i++) c.sample(50, false, (t += 10));
    expect(c.pauseMs).toBe(MAX_PAUSE_MS);
    // Under the line the pause shrinks with time; well under it (window p99 within half the budget), faster.
    const slow = new LatencyControl(0.3, 2);
    const fast = new LatencyControl(0.3, 2);
    for (let i = 0; i < 8; i++) [slow, fast].forEach((c) => c.sample(9, false, 0));
    expect(slow.pauseMs).toBeGreaterThan(20);
    for (let i = 0; i < 200; i++) fast.sample(0.2, false, 1 + i);
    for (let i = 0; i < 200; i++) slow.sample(i < 190 ? 2.2 : 0.2, false, 1 + i);
    expect(fast.pauseMs).toBeLessThan(slow.pauseMs);
    expect(slow.pauseMs).toBeGreaterThan(0);
  });

  it('does not count samples taken in its own pauses against the run; enough of them raise the idle baseline', () => {
    const c = new LatencyControl(0.3, 2);
    for (let i = 0; i < 10; i++) c.sample(6, true, i);
    expect(c.pauseMs).toBe(0);
    expect(c.idleP99Ms).toBe(0.3);
    for (let i = 0; i < 30; i++) c.sample(6, true, i);
    expect(c.idleP99Ms).toBe(6);
    c.sample(7, false, 100);
    expect(c.pauseMs).toBe(0);
  });

  it('sizes batches to the budget', () => {
    expect(countFor(null, 1000)).toBe(1000);
    expect(countFor(2, 1000)).toBe(1000);
    expect(countFor(0.5, 1000)).toBe(250);
    expect(countFor(0.1, 1000)).toBe(50);
  });

  it('quantile: nearest rank rounded down', () => {
    const xs = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(quantile(xs, 0.99)).toBe(19);
    expect(quantile(xs, 0.5)).toBe(10);
  });
});
