import { describe, expect, it } from 'vitest';
import type { LoadEvent, LoadReport } from '../../../app/schemas/bulk';
import { EMPTY_LOAD, foldLoad, isTerminal, MAX_POINTS, MAX_WARNINGS, outcomeOf, stepsOf, type LoadView } from './loadView';

const phase = (p: Extract<LoadEvent, { kind: 'phase' }>['phase'], at: number, message = `${p}…`): LoadEvent => ({
  kind: 'phase',
  phase: p,
  message,
  at,
});

const progress = (at: number, records: number, extra: Partial<Extract<LoadEvent, { kind: 'progress' }>> = {}): LoadEvent => ({
  kind: 'progress',
  at,
  records,
  commands: records,
  replies: records,
  errors: 0,
  bytesRead: records * 10,
  bytesTotal: 10_000,
  opsPerSec: records,
  recordsPerSec: records,
  ...extra,
});

const report = (outcome: LoadReport['outcome'], extra: Partial<LoadReport> = {}): LoadEvent => ({
  kind: 'report',
  report: {
    jobId: 'load_abcd',
    file: 'users.csv',
    format: 'csv',
    mode: 'swap',
    targetDb: 0,
    stagingDb: 5,
    outcome,
    records: 1000,
    commands: 1000,
    replies: 1000,
    errors: 0,
    firstErrors: [],
    seconds: 1.5,
    opsPerSec: 666,
    recordsPerSec: 666,
    swapped: outcome === 'ok',
    warnings: [],
    ...extra,
  },
});

const stateOf = (v: LoadView) => Object.fromEntries(stepsOf(v).map((s) => [s.phase, s.state]));

describe('foldLoad', () => {
  it('follows phases and keeps each phase message', () => {
    const v = foldLoad(EMPTY_LOAD, [phase('preflight', 1, 'checking db0'), phase('staging', 2, 'staging in db5')]);
    expect(v.phase).toBe('staging');
    expect(v.phases.preflight?.message).toBe('checking db0');
    expect(v.startedAt).toBe(1);
  });

  it('keeps the latest progress and charts its ops/s', () => {
    const v = foldLoad(EMPTY_LOAD, [progress(10, 100), progress(20, 300)]);
    expect(v.progress?.records).toBe(300);
    expect(v.series.points).toEqual([
      { t: 10, ops: 100 },
      { t: 20, ops: 300 },
    ]);
  });

  it('is unchanged by a replay of the history it already holds', () => {
    const history: LoadEvent[] = [
      phase('preflight', 1),
      phase('loading', 2),
      progress(10, 100),
      { kind: 'warning', message: 'maxmemory is close', at: 11 },
      progress(20, 300),
    ];
    const once = foldLoad(EMPTY_LOAD, history);
    const twice = foldLoad(once, history);
    expect(twice).toBe(once);
    expect(twice.warnings).toHaveLength(1);
    expect(twice.phase).toBe('loading');
    expect(twice.progress?.records).toBe(300);
  });

  it('ignores a progress event older than the one held', () => {
    const v = foldLoad(EMPTY_LOAD, [progress(20, 300), progress(10, 100)]);
    expect(v.progress?.records).toBe(300);
    expect(v.series.points).toHaveLength(1);
  });

  it('does not move the current phase back when an old phase event arrives late', () => {
    const v = foldLoad(EMPTY_LOAD, [phase('loading', 5), phase('preflight', 1)]);
    expect(v.phase).toBe('loading');
    expect(v.startedAt).toBe(1);
  });

  it('bounds the chart however long the load runs', () => {
    const events = Array.from({ length: 5000 }, (_, i) => progress(i * 100, i));
    const v = foldLoad(EMPTY_LOAD, events);
    expect(v.series.points.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(v.series.points[0]?.t).toBeLessThan(10_000);
    expect(v.progress?.records).toBe(4999);
  });

  it('keeps a bounded number of warnings and counts the rest', () => {
    const events: LoadEvent[] = Array.from({ length: MAX_WARNINGS + 5 }, (_, i) => ({ kind: 'warning', message: `w${i}`, at: i }));
    const v = foldLoad(EMPTY_LOAD, events);
    expect(v.warnings).toHaveLength(MAX_WARNINGS);
    expect(v.warningsOmitted).toBe(5);
  });

  it('takes the report and its outcome', () => {
    const v = foldLoad(EMPTY_LOAD, [phase('loading', 1), report('failed', { error: { code: 'REDIS', message: 'OOM' } })]);
    expect(v.report?.error?.message).toBe('OOM');
    expect(outcomeOf(v)).toBe('failed');
    expect(isTerminal(v)).toBe(true);
  });
});

describe('stepsOf', () => {
  it('marks the current step and leaves later ones pending', () => {
    const v = foldLoad(EMPTY_LOAD, [phase('preflight', 1), phase('staging', 2), phase('loading', 3)]);
    expect(stateOf(v)).toMatchObject({
      preflight: 'done',
      staging: 'done',
      loading: 'current',
      verifying: 'pending',
      done: 'pending',
    });
    expect(isTerminal(v)).toBe(false);
  });

  it('shows steps a merge never enters as skipped', () => {
    const v = foldLoad(EMPTY_LOAD, [phase('preflight', 1), phase('loading', 2), phase('done', 3), report('ok')]);
    expect(stateOf(v)).toMatchObject({
      preflight: 'done',
      staging: 'skipped',
      loading: 'done',
      swapping: 'skipped',
      bgsave: 'skipped',
      done: 'done',
    });
  });

  it('marks where a failed load stopped and ends on failed, with cleanup shown', () => {
    const v = foldLoad(EMPTY_LOAD, [
      phase('preflight', 1),
      phase('staging', 2),
      phase('loading', 3),
      phase('cleanup', 4, 'discarding db5'),
      phase('failed', 5, 'OOM command not allowed'),
    ]);
    const steps = stepsOf(v);
    expect(steps.map((s) => s.phase).slice(-2)).toEqual(['cleanup', 'failed']);
    expect(stateOf(v)).toMatchObject({ loading: 'failed', cleanup: 'done', failed: 'failed', verifying: 'skipped' });
    expect(steps.at(-1)?.message).toBe('OOM command not allowed');
  });

  it('ends on cancelled after a cancel', () => {
    const v = foldLoad(EMPTY_LOAD, [phase('preflight', 1), phase('loading', 2), report('cancelled')]);
    expect(stateOf(v)).toMatchObject({ loading: 'cancelled', cancelled: 'cancelled' });
  });
});
