import { describe, expect, it } from 'vitest';
import type { TrialEvent } from '../../../app/schemas/trials';
import { pipelineReport, point, variant } from './reportTestKit';
import { EMPTY_TRIAL, foldTrial, fractionOf, stepLabel } from './trialView';

const started: TrialEvent = {
  kind: 'started',
  trial: 'pipeline',
  address: '127.0.0.1:6390',
  dbs: [0],
  variants: ['plain', 'pipelined', 'multi', 'pipelinedMulti'],
  total: 8000,
};
const progress = (done: number, elapsedMs: number): TrialEvent => ({ kind: 'progress', step: 'plain', done, total: 8000, opsPerSec: 1000, elapsedMs });

describe('foldTrial', () => {
  it('collects progress, variants and sweep points as they come, then the report', () => {
    let v = foldTrial(EMPTY_TRIAL, [started, progress(1000, 100)]);
    expect(fractionOf(v)).toBe(0.125);
    v = foldTrial(v, [
      { kind: 'variant', result: variant('plain', 2000, 0.2) },
      { kind: 'sweep', point: point(1, 10, 20) },
    ]);
    expect(v.variants.map((r) => r.variant)).toEqual(['plain']);
    expect(v.sweep).toHaveLength(1);
    expect(v.outcome).toBeUndefined();
    const report = pipelineReport();
    v = foldTrial(v, [{ kind: 'done', report }]);
    expect(v.outcome).toBe('done');
    expect(v.variants).toHaveLength(4);
    expect(fractionOf(v)).toBe(1);
  });

  it('is idempotent under replay: nothing counted twice, older progress never wins, nothing after the end', () => {
    const events: TrialEvent[] = [started, progress(4000, 500), { kind: 'variant', result: variant('plain', 2000, 0.2) }];
    const once = foldTrial(EMPTY_TRIAL, events);
    const twice = foldTrial(once, [...events, progress(1000, 100)]);
    expect(twice).toBe(once);
    const failed = foldTrial(twice, [{ kind: 'failed', error: { code: 'VALIDATION', message: 'no', field: 'confirmNonEmpty' } }]);
    expect(failed.outcome).toBe('failed');
    expect(failed.error?.field).toBe('confirmNonEmpty');
    expect(foldTrial(failed, [{ kind: 'done', report: pipelineReport() }])).toBe(failed);
  });

  it('knows no fraction before the run starts; a cancelled one stays where it stopped', () => {
    expect(fractionOf(EMPTY_TRIAL)).toBeUndefined();
    const v = foldTrial(EMPTY_TRIAL, [started, progress(2000, 300), { kind: 'cancelled', report: pipelineReport({ variants: [] }) }]);
    expect(v.outcome).toBe('cancelled');
    expect(fractionOf(v)).toBe(0.25);
  });
});

describe('stepLabel', () => {
  it('names variants and sweep points', () => {
    expect(stepLabel('pipelinedMulti')).toBe('pipelined MULTI/EXEC');
    expect(stepLabel('sweep:20:pipelined')).toBe('sweep: MULTI of 20, pipelined');
    expect(stepLabel('sweep:5')).toBe('sweep: MULTI of 5');
    expect(stepLabel('')).toBe('');
  });
});
