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
    const id = jobs.start('h:1/0', (jobId, _emit, signal) =>
      new Promise((resolve) => signal.addEventListener('abort', () => resolve(report(jobId, 'cancelled')))),
    );
    expect(jobs.cancel(id)).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    expect(jobs.cancel(id)).toBe(false);
    expect(() => jobs.cancel('load_nope')).toThrow(/No load/);
  });
});
