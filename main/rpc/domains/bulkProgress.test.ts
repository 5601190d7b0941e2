import { describe, expect, it } from 'vitest';
import type { LoadEvent } from '../../../app/schemas/bulk';
import { BulkJobs } from '../../core/bulk/jobManager';
import type { StreamSink } from '../handlers';
import { loadProgress } from './bulk';

/** A sink as the dispatcher hands it over, recording what the handler pushes and whether it ended the stream. */
function recordingSink() {
  const events: LoadEvent[] = [];
  let ended = false;
  const sink: StreamSink<LoadEvent> = {
    push: (e) => events.push(e),
    end: () => {
      ended = true;
    },
    signal: new AbortController().signal,
    backlog: 0,
  };
  return { sink, events, ended: () => ended };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('bulk.progress', () => {
  it('closes when the runner throws, after the failed phase', async () => {
    const jobs = new BulkJobs();
    let crash!: () => void;
    const id = jobs.start('h:1/0', async () => {
      await new Promise<void>((r) => (crash = r));
      throw new Error('boom');
    });
    const { sink, events, ended } = recordingSink();
    loadProgress(jobs)({ jobId: id }, sink, { session: { role: 'ops' }, signal: sink.signal });
    await tick();
    expect(ended()).toBe(false);
    crash();
    await tick();
    expect(events.at(-1)).toMatchObject({ kind: 'phase', phase: 'failed', message: 'load crashed: boom' });
    expect(ended()).toBe(true);
  });

  it('closes after the report, and a subscriber arriving later gets the report and the end at once', async () => {
    const jobs = new BulkJobs();
    const id = jobs.start('h:1/0', async (jobId) => ({
      jobId, file: 'f.csv', format: 'csv', mode: 'merge', targetDb: 0, outcome: 'ok', records: 0, commands: 0, replies: 0, errors: 0,
      firstErrors: [], seconds: 0, opsPerSec: 0, swapped: false, warnings: [],
    }));
    await tick();
    const { sink, events, ended } = recordingSink();
    loadProgress(jobs)({ jobId: id }, sink, { session: { role: 'ops' }, signal: sink.signal });
    await tick();
    expect(events.map((e) => e.kind)).toEqual(['report']);
    expect(ended()).toBe(true);
  });
});
