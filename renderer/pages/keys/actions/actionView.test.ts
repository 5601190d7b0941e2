import { describe, expect, it } from 'vitest';
import type { KeyActionEvent } from '../../../../app/schemas/keyActions';
import { testCounts, testReport } from './actionTestKit';
import { countsOf, EMPTY_ACTION, foldAction, fractionOf } from './actionView';

const progress = (scanned: number, seconds: number): KeyActionEvent => ({
  kind: 'progress',
  counts: testCounts({ scanned, seconds }),
  rate: 100,
  etaSeconds: 5,
  paused: null,
});
const report = (scanned: number, acted: number) => testReport({ scanned, acted, matched: acted, seconds: 9 });

describe('foldAction', () => {
  it('keeps the newest progress: a replayed older one does not move the bar back', () => {
    const v = foldAction(EMPTY_ACTION, [progress(100, 1), progress(400, 4), progress(200, 2)]);
    expect(v.progress?.counts.scanned).toBe(400);
    expect(fractionOf(v)).toBe(0.4);
  });

  it('ends on the final event, takes nothing after it, and a cancelled run keeps its exact counts', () => {
    const v = foldAction(EMPTY_ACTION, [
      progress(400, 4),
      { kind: 'cancelled', report: report(420, 37) },
      progress(900, 9),
      { kind: 'done', report: report(1000, 100) },
    ]);
    expect(v.outcome).toBe('cancelled');
    expect(countsOf(v)?.acted).toBe(37);
    // Cancelled at 420 of 1000: the bar stays where the run stopped.
    expect(fractionOf(v)).toBe(0.42);
  });

  it('keeps a failed run’s report and reason', () => {
    const v = foldAction(EMPTY_ACTION, [{ kind: 'failed', error: { code: 'DISCONNECTED', message: 'lost' }, report: report(300, 12) }]);
    expect(v).toMatchObject({ outcome: 'failed', error: { code: 'DISCONNECTED' } });
    expect(countsOf(v)?.acted).toBe(12);
  });

  it('is full once done, and slides before anything is known', () => {
    expect(fractionOf(EMPTY_ACTION)).toBeUndefined();
    expect(fractionOf(foldAction(EMPTY_ACTION, [{ kind: 'done', report: report(0, 0) }]))).toBe(1);
  });
});
