import { describe, expect, it } from 'vitest';
import { allocateSamples } from './allocate';

describe('allocateSamples', () => {
  it('splits draws in proportion to DBSIZE and adds up to the samples asked for', () => {
    expect(allocateSamples(10_000, [5_000, 3_000, 2_000])).toEqual([5_000, 3_000, 2_000]);
    const parts = allocateSamples(1_000, [333, 333, 334]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(1_000);
    expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
  });

  it('gives an empty master no draws, and an empty cluster none at all', () => {
    expect(allocateSamples(100, [0, 50, 50])).toEqual([0, 50, 50]);
    expect(allocateSamples(100, [0, 0])).toEqual([0, 0]);
  });
});
