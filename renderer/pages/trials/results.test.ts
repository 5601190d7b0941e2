import { describe, expect, it } from 'vitest';
import type { TrialEvent } from '../../../app/schemas/trials';
import { formatRatio, paramsText, resultsOf, variantRows } from './results';
import { EMPTY_TRIAL, foldTrial } from './trialView';
import { pipelineReport, variant } from './reportTestKit';

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
    expect(plain).toMatchObject({
      name: 'plain',
      detail: 'plain label',
      ops: '2,000',
      seconds: '0.20 s',
      opsPerSec: '10,000',
      ratio: '1.00×',
      keys: '2,000',
      hasErrors: false,
    });
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

describe('paramsText', () => {
  it('names the multiplex trial’s DB range', () => {
    expect(paramsText({ trial: 'multiplex', params: { n: 5000, batch: 10 }, dbs: [2, 3, 4, 5, 6] })).toBe('N 5,000 · batch 10 · db2–6');
    expect(paramsText({ trial: 'pipeline', params: { n: 10, batch: 5 }, dbs: [0] })).toBe('N 10 · B 5 · db0');
  });
});

describe('resultsOf', () => {
  const started: TrialEvent = {
    kind: 'started',
    trial: 'pipeline',
    address: 'a:1',
    dbs: [0],
    variants: ['plain', 'pipelined', 'multi', 'pipelinedMulti'],
    total: 10,
  };

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
