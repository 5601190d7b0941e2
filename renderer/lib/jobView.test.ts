import { describe, expect, it } from 'vitest';
import { EMPTY_JOB, elapsedSeconds, jobFold, shareDone, type JobView } from './jobView';

type Event =
  | { kind: 'started'; total: number }
  | { kind: 'progress'; done: number; elapsedMs: number }
  | { kind: 'item'; name: string }
  | { kind: 'done' | 'cancelled'; report: { items: string[]; seconds: number } }
  | { kind: 'failed'; error: { code: string; message: string } };

interface View extends JobView<Event> {
  items: readonly string[];
}

const EMPTY: View = { ...EMPTY_JOB, items: [] };
const fold = jobFold<Event, View>({
  own: (v, e) => (v.items.includes(e.name) ? v : { ...v, items: [...v.items, e.name] }),
  ended: (v, report) => ({ ...v, items: report.items }),
});
const started: Event = { kind: 'started', total: 10 };
const progress = (done: number, elapsedMs: number): Event => ({ kind: 'progress', done, elapsedMs });

describe('jobFold', () => {
  it('follows a job from its start to its report, the report replacing what came one by one', () => {
    const running = fold(EMPTY, [started, progress(2, 100), { kind: 'item', name: 'a' }]);
    expect(running).toMatchObject({ started, progress: { done: 2 }, items: ['a'], outcome: undefined });
    const done = fold(running, [{ kind: 'done', report: { items: ['a', 'b'], seconds: 1.5 } }]);
    expect(done).toMatchObject({ outcome: 'done', items: ['a', 'b'], report: { seconds: 1.5 } });
  });

  it('is idempotent under replay: the same view back, older progress never wins', () => {
    const once = fold(EMPTY, [started, progress(5, 500), { kind: 'item', name: 'a' }]);
    expect(fold(once, [{ kind: 'started', total: 99 }, progress(3, 300), { kind: 'item', name: 'a' }])).toBe(once);
    expect(fold(once, [progress(6, 600)]).progress).toEqual(progress(6, 600));
  });

  it('takes nothing after the final event', () => {
    const cancelled = fold(EMPTY, [started, { kind: 'cancelled', report: { items: [], seconds: 1 } }]);
    expect(fold(cancelled, [progress(9, 900), { kind: 'item', name: 'late' }, { kind: 'failed', error: { code: 'X', message: 'late' } }])).toBe(cancelled);
  });

  it('keeps the reason of a failed job', () => {
    const v = fold(EMPTY, [started, { kind: 'failed', error: { code: 'NOPERM', message: 'no' } }]);
    expect(v).toMatchObject({ outcome: 'failed', error: { code: 'NOPERM' }, report: undefined });
  });
});

describe('shareDone', () => {
  it('is full once done, capped at 1, and unknown while nothing says how far a running job goes', () => {
    expect(shareDone(undefined, 5, 20)).toBe(0.25);
    expect(shareDone(undefined, 30, 20)).toBe(1);
    expect(shareDone('done', 0, undefined)).toBe(1);
    expect(shareDone(undefined, 0, undefined)).toBeUndefined();
    expect(shareDone(undefined, 0, 0)).toBeUndefined();
    expect(shareDone('cancelled', 0, undefined)).toBe(0);
  });
});

describe('elapsedSeconds', () => {
  it('counts the progress while running and the report once ended', () => {
    const p = { elapsedMs: 1500 };
    expect(elapsedSeconds({ outcome: undefined, progress: p, report: undefined })).toBe(1.5);
    expect(elapsedSeconds({ outcome: 'done', progress: p, report: { seconds: 2.25 } })).toBe(2.25);
    expect(elapsedSeconds({ outcome: 'failed', progress: p, report: undefined })).toBe(1.5);
    expect(elapsedSeconds({ outcome: undefined, progress: undefined, report: undefined })).toBe(0);
  });
});
