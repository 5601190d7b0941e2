import { describe, expect, it } from 'vitest';
import { bucketBound, bucketIndex, Pow2Histogram } from './histogram';

describe('power-of-two buckets', () => {
  it.each([
    [0, 0],
    [1, 1],
    [2, 2],
    [3, 4],
    [4, 4],
    [5, 8],
    [1000, 1024],
    [1024, 1024],
    [1025, 2048],
    [2 ** 31, 2 ** 31],
    [2 ** 31 + 1, 2 ** 32],
    [2 ** 40, 2 ** 40],
    [2 ** 40 + 1, 2 ** 41],
  ])('%d lands in the bucket with upper bound %d', (value, le) => {
    const i = bucketIndex(value);
    expect(bucketBound(i)).toBe(le);
    // and not in the bucket below: (le/2, le]
    if (i > 1) expect(value).toBeGreaterThan(bucketBound(i - 1));
  });

  it('lists buckets from the lowest to the highest used, empty ones between included', () => {
    const h = new Pow2Histogram();
    for (const v of [3, 4, 4, 100]) h.add(v);
    expect(h.buckets()).toEqual([
      { le: 4, count: 3 },
      { le: 8, count: 0 },
      { le: 16, count: 0 },
      { le: 32, count: 0 },
      { le: 64, count: 0 },
      { le: 128, count: 1 },
    ]);
  });

  it('keeps zeros in their own bucket and is empty with no values', () => {
    const h = new Pow2Histogram();
    expect(h.buckets()).toEqual([]);
    h.add(0);
    h.add(1);
    expect(h.buckets()).toEqual([
      { le: 0, count: 1 },
      { le: 1, count: 1 },
    ]);
  });
});
