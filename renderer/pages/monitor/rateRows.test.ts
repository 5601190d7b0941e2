import { describe, expect, it } from 'vitest';
import { rateRows, timeTicks, valueTicks } from './rateRows';

describe('rateRows', () => {
  it('puts the points of every node that fall in one second on one row', () => {
    const rows = rateRows([
      {
        key: '0',
        points: [
          { t: 1_000_020, lines: 10, delivered: null },
          { t: 1_001_010, lines: 12, delivered: 11 },
        ],
      },
      { key: '1', points: [{ t: 1_000_480, lines: 5, delivered: 5 }] },
    ]);
    expect(rows).toEqual([
      { t: 1_000_000, l0: 10, d0: null, l1: 5, d1: 5 },
      { t: 1_001_000, l0: 12, d0: 11 },
    ]);
  });

  it('is empty without points', () => {
    expect(rateRows([{ key: '0', points: [] }])).toEqual([]);
  });
});

describe('ticks', () => {
  it('puts time ticks on whole steps inside the range', () => {
    expect(timeTicks(1_000_500, 1_060_000)).toEqual([1_010_000, 1_020_000, 1_030_000, 1_040_000, 1_050_000, 1_060_000]);
    expect(timeTicks(0, 300_000)).toEqual([0, 60_000, 120_000, 180_000, 240_000, 300_000]);
    expect(timeTicks(5, 5)).toEqual([5]);
  });

  it('puts value ticks on round steps from 0 past the maximum', () => {
    expect(valueTicks(123_000)).toEqual([0, 50_000, 100_000, 150_000]);
    expect(valueTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(valueTicks(0)).toEqual([0, 1]);
  });
});
