import { describe, expect, it } from 'vitest';
import { latencySeries, logTicks, opsBars, sweepSeries } from './chartRows';
import { pipelineReport, point, variant } from './reportTestKit';

describe('chart rows', () => {
  it('draws the baseline grey and writes the ratio beside every other bar', () => {
    const bars = opsBars(pipelineReport().variants);
    expect(bars.map((b) => b.figure)).toEqual(['10,000/s', '200,000/s · 20.0×', '8,000/s · 0.80×', '160,000/s · 16.0×']);
    expect(new Set(bars.map((b) => b.color)).size).toBe(4);
    expect(bars[1]?.detail).toContain('20.0× plain');
  });

  it('colours every load bar and writes no ratio', () => {
    const bars = opsBars([variant('set', 100, 1), variant('get', 200, 1)]);
    expect(bars.map((b) => b.figure)).toEqual(['100/s', '200/s']);
    expect(bars[0]?.color).not.toBe(bars[1]?.color);
  });

  it('orders the sweep by MULTI size', () => {
    const rows = sweepSeries([point(10, 5, 50), point(1, 2, 4)]);
    expect(rows.map((r) => r.size)).toEqual(['1', '10']);
    expect(rows[1]).toMatchObject({ plain: 5, pipelined: 50, ratio: 10 });
  });
});

describe('latencySeries', () => {
  it('puts each command’s percentiles side by side, skipping variants without latency', () => {
    const pct = (p50Ms: number) => ({ p50Ms, p95Ms: 2 * p50Ms, p99Ms: 3 * p50Ms, maxMs: 10 * p50Ms });
    const { rows, series } = latencySeries([variant('set', 1, 1, { latency: pct(0.1) }), variant('get', 1, 1, { latency: pct(0.2) }), variant('plain', 1, 1)]);
    expect(series.map((s) => s.name)).toEqual(['SET', 'GET']);
    expect(rows.map((r) => r['percentile'])).toEqual(['p50', 'p95', 'p99', 'max']);
    expect(rows[2]?.['set']).toBeCloseTo(0.3);
    expect(rows[2]?.['get']).toBeCloseTo(0.6);
    expect(rows[2]).not.toHaveProperty('plain');
  });
});

describe('logTicks', () => {
  it('spans the values with powers of ten', () => {
    expect(logTicks([283, 117_755])).toEqual([100, 1000, 10_000, 100_000, 1_000_000]);
    expect(logTicks([1000])).toEqual([1000, 10_000]);
    expect(logTicks([0, 50, 90])).toEqual([10, 100]);
    expect(logTicks([])).toEqual([1, 10]);
  });
});
