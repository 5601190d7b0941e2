import { describe, expect, it } from 'vitest';
import type { LoadEvent, LoadReport } from '../../../app/schemas/bulk';
import { BulkJobs } from './jobManager';

const report = (jobId: string, outcome: LoadReport['outcome']): LoadReport => ({
  jobId,
  file: 'f.csv',
  format: 'csv',
  mode: 'swap',
  targetDb: 0,
  outcome,
  records: 1,
  commands: 1,
  replies: 1,
  errors: 0,
  firstErrors: [],
  seconds: 0.1,
  opsPerSec: 10,
  recordsPerSec: 10,
  swapped: outcome === 'ok',
  warnings: [],
});

const progress = (records: number): LoadEvent => ({
  kind: 'progress',
  at: records,
  records,
  commands: records,
  replies: records,
  errors: 0,
  bytesRead: records,
  opsPerSec: 1,
  recordsPerSec: 1,
});

describe('bulk jobs', () => {
  it('replays phases, the latest progress and the report to a late subscriber', async () => {
    const jobs = new BulkJobs();
    let finish!: () => void;
    const id = jobs.start('h:1/0', async (jobId, emit) => {
      emit({ kind: 'phase', phase: 'preflight', message: 'checking', at: 1 });
      emit(progress(10));
      emit(progress(20));
      emit({ kind: 'warning', message: 'w', at: 2 });
      await new Promise<void>((r) => (finish = r));
      return report(jobId, 'ok');
    });
    const early: LoadEvent[] = [];
    jobs.subscribe(id, (e) => early.push(e));
    finish();
    await new Promise((r) => setTimeout(r, 5));
    const late: LoadEvent[] = [];
    jobs.subscribe(id, (e) => late.push(e));
    expect(late.map((e) => e.kind)).toEqual(['phase', 'warning', 'progress', 'report']);
    expect(late.find((e) => e.kind === 'progress')).toMatchObject({ records: 20 });
    expect(early.at(-1)).toMatchObject({ kind: 'report', report: { outcome: 'ok' } });
  });

  it('knows which target is busy until the load reports', async () => {
    const jobs = new BulkJobs();
    let finish!: () => void;
    const id = jobs.start('h:1/0', async (jobId) => {
      await new Promise<void>((r) => (finish = r));
      return report(jobId, 'ok');
    });
    expect(jobs.runningOn('h:1/0')).toBe(id);
    expect(jobs.runningOn('h:1/1')).toBeUndefined();
    finish();
    await new Promise((r) => setTimeout(r, 5));
    expect(jobs.runningOn('h:1/0')).toBeUndefined();
  });

  it('cancels through the abort signal, and only while running', async () => {
    const jobs = new BulkJobs();
    const id = jobs.start(
      'h:1/0',
      (jobId, _emit, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(report(jobId, 'cancelled')))),
    );
    expect(jobs.cancel(id)).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    expect(jobs.cancel(id)).toBe(false);
    expect(() => jobs.cancel('load_nope')).toThrow(/No load/);
  });

  it('ends a load whose runner throws: a failed last event, and the target free for the next load', async () => {
    const jobs = new BulkJobs();
    const id = jobs.start('h:1/0', async (_jobId, emit) => {
      emit({ kind: 'phase', phase: 'preflight', message: 'checking', at: 1 });
      throw new Error('boom');
    });
    const seen: { e: LoadEvent; last: boolean }[] = [];
    jobs.subscribe(id, (e, last) => seen.push({ e, last }));
    await new Promise((r) => setTimeout(r, 5));
    expect(seen.at(-1)).toEqual({ e: { kind: 'phase', phase: 'failed', message: 'load crashed: boom', at: expect.any(Number) }, last: true });
    expect(jobs.runningOn('h:1/0')).toBeUndefined();
    expect(jobs.cancel(id)).toBe(false);
    // A late subscriber is told the same ending.
    const late: boolean[] = [];
    jobs.subscribe(id, (_e, last) => late.push(last));
    expect(late).toEqual([false, true]);
    const next = jobs.start('h:1/0', async (jobId) => report(jobId, 'ok'));
    await new Promise((r) => setTimeout(r, 5));
    const ended: LoadEvent[] = [];
    jobs.subscribe(next, (e) => ended.push(e));
    expect(ended.at(-1)).toMatchObject({ kind: 'report', report: { outcome: 'ok' } });
  });
});
