import { describe, expect, it } from 'vitest';
import { HotCounter } from './hotCounter';

describe('HotCounter', () => {
  it('counts exactly while under capacity', () => {
    const c = new HotCounter(100);
    const want = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const k = `k${(i * 7) % 13}`;
      c.add(k);
      want.set(k, (want.get(k) ?? 0) + 1);
    }
    const top = c.top(3);
    const expected = [...want].sort((a, b) => b[1] - a[1]).slice(0, 3);
    expect(top.map((t) => t.count)).toEqual(expected.map((e) => e[1]));
    expect(c.total).toBe(1000);
  });

  it('finds the heavy hitters in a stream of unique keys while holding at most its capacity', () => {
    const c = new HotCounter(200);
    const hot = ['user:1', 'user:2', 'cart:9'];
    for (let i = 0; i < 50_000; i++) {
      c.add(`noise:${i}`);
      if (i % 10 === 0) c.add(hot[i % 3] as string);
      expect(c.size).toBeLessThanOrEqual(200);
    }
    expect(new Set(c.top(3).map((t) => t.name))).toEqual(new Set(hot));
  });
});
