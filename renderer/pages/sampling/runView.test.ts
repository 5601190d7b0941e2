import { describe, expect, it } from 'vitest';
import type { SamplingEvent } from '../../../app/schemas/sampling';
import { EMPTY_RUN, etaOf, examinedOf, foldRun, fractionOf, type ProgressEvent } from './runView';
import { testReport } from './reportTestKit';

const started: SamplingEvent = { kind: 'started', method: 'sample', db: 0, dbsize: 1000, target: 200 };
const progress = (examined: number, elapsedMs: number): ProgressEvent => ({
  kind: 'progress',
  examined,
  target: 200,
  keysPerSec: 100,
  elapsedMs,
});

describe('foldRun', () => {
  it('follows a run from start to its report', () => {
    const partial = testReport({ keysExamined: 50 });
    const final = testReport({ keysExamined: 200 });
    const v = foldRun(EMPTY_RUN, [started, progress(50, 500), { kind: 'partial', report: partial }, progress(200, 2000), { kind: 'done', report: final }]);
    expect(v.started).toEqual(started);
    expect(v.outcome).toBe('done');
    expect(v.report).toBe(final);
    expect(fractionOf(v)).toBe(1);
    expect(examinedOf(v)).toBe(200);
  });

  it('is idempotent under replay: older progress and partial reports do not win', () => {
    const a = foldRun(EMPTY_RUN, [started, progress(100, 1000), { kind: 'partial', report: testReport({ keysExamined: 100 }) }]);
    const b = foldRun(a, [started, progress(50, 500), { kind: 'partial', report: testReport({ keysExamined: 50 }) }]);
    expect(b.progress?.examined).toBe(100);
    expect(b.report?.keysExamined).toBe(100);
    expect(foldRun(a, [progress(100, 1000)])).toBe(a);
  });

  it('ignores everything after the final event', () => {
    const done = foldRun(EMPTY_RUN, [started, { kind: 'cancelled', report: testReport({ keysExamined: 30 }) }]);
    const again = foldRun(done, [started, progress(150, 9000), { kind: 'done', report: testReport() }]);
    expect(again).toBe(done);
    expect(again.outcome).toBe('cancelled');
  });

  it('keeps the reason of a failed run', () => {
    const v = foldRun(EMPTY_RUN, [started, { kind: 'failed', error: { code: 'NOPERM', message: 'no RANDOMKEY' } }]);
    expect(v.outcome).toBe('failed');
    expect(v.error?.message).toBe('no RANDOMKEY');
    expect(v.report).toBeUndefined();
  });
});

describe('progress figures', () => {
  it('draws a line through the rate for the ETA', () => {
    // 50 of 200 in 5 s: 15 s to go.
    expect(etaOf(progress(50, 5000))).toBe(15);
    expect(etaOf(progress(0, 5000))).toBeUndefined();
    expect(etaOf(progress(250, 5000))).toBe(0);
  });

  it('caps the share at 1 when a census finds more keys than DBSIZE said', () => {
    const v = foldRun(EMPTY_RUN, [started, progress(260, 3000)]);
    expect(fractionOf(v)).toBe(1);
    expect(fractionOf(EMPTY_RUN)).toBeUndefined();
  });
});
