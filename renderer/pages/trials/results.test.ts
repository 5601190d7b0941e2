import { describe, expect, it } from 'vitest';
import type { TrialEvent } from '../../../app/schemas/trials';
import { formatRatio, latencySeries, logTicks, opsBars, paramsText, resultsOf, sweepSeries, variantRows } from './results';
import { EMPTY_TRIAL, foldTrial } from './trialView';
import { pipelineReport, point, variant } from './testReport';

describe('formatRatio', () => {
  it('keeps three significant figures, and a dash without a baseline', () => {
    expect(formatRatio(1)).toBe('1.00×');
    expect(formatRatio(0.8)).toBe('0.80×');
    expect(formatRatio(24.93)).toBe('24.9×');
    expect(formatRatio(312.4)).toBe('312×');
    expect(formatRatio(undefined)).toBe('—');
    expect(formatRatio(Number.NaN)).toBe('—');
  });
});

describe('variantRows', () => {
  it('formats every column of the results table', () => {
    const [plain, pipelined] = variantRows(pipelineReport().variants);
    expect(plain).toMatchObject({ name: 'plain', detail: 'plain label', ops: '2,000', seconds: '0.20 s', opsPerSec: '10,000', ratio: '1.00×', keys: '2,000', hasErrors: false });
    expect(plain?.latency).toBeUndefined();
    expect(pipelined).toMatchObject({ name: 'pipelined', opsPerSec: '200,000', ratio: '20.0×' });
  });

  it('gives the load trial its percentiles and flags errors', () => {
    const [set] = variantRows([variant('set', 1000, 0.5, { label: 'SET', errors: 3, latency: { p50Ms: 0.21, p95Ms: 0.9, p99Ms: 12.34, maxMs: 250 } })]);
    expect(set?.ratio).toBe('—');
    expect(set?.detail).toBeUndefined();
    expect(set?.hasErrors).toBe(true);
    expect(set?.latency).toEqual({ p50Ms: '0.21 ms', p95Ms: '0.90 ms', p99Ms: '12.3 ms', maxMs: '250 ms' });
  });
});

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

describe('paramsText', () => {
  it('names the multiplex trial’s DB range', () => {
    expect(paramsText({ trial: 'multiplex', params: { n: 5000, batch: 10 }, dbs: [2, 3, 4, 5, 6] })).toBe('N 5,000 · batch 10 · db2–6');
    expect(paramsText({ trial: 'pipeline', params: { n: 10, batch: 5 }, dbs: [0] })).toBe('N 10 · B 5 · db0');
  });
});

describe('resultsOf', () => {
  const started: TrialEvent = { kind: 'started', trial: 'pipeline', address: 'a:1', dbs: [0], variants: ['plain', 'pipelined', 'multi', 'pipelinedMulti'], total: 10 };

  it('lists the variants still to run while the run goes, none once it ended', () => {
    const running = foldTrial(EMPTY_TRIAL, [started, { kind: 'variant', result: variant('plain', 10, 1) }]);
    expect(resultsOf('pipeline', running)).toMatchObject({ state: 'running', pending: ['pipelined', 'MULTI/EXEC', 'pipelined MULTI/EXEC'], params: undefined });
    const cancelled = foldTrial(running, [{ kind: 'cancelled', report: pipelineReport({ variants: [...running.variants], warnings: ['w'] }) }]);
    expect(resultsOf('pipeline', cancelled)).toMatchObject({ state: 'cancelled', pending: [], warnings: ['w'], params: 'N 2,000 · B 100 · sweep 500 · db0' });
  });

  it('has nothing to show before the start, after a failure, or after a cancel before the first variant', () => {
    expect(resultsOf('pipeline', EMPTY_TRIAL)).toBeUndefined();
    expect(resultsOf('pipeline', foldTrial(EMPTY_TRIAL, [started, { kind: 'cancelled', report: pipelineReport({ variants: [] }) }]))).toBeUndefined();
    expect(resultsOf('pipeline', foldTrial(EMPTY_TRIAL, [started, { kind: 'failed', error: { code: 'REDIS', message: 'x' } }]))).toBeUndefined();
  });
});
