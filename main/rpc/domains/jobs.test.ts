import { afterAll, describe, expect, it } from 'vitest';
import { contract, type Name, type StreamEvent } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { JOB_STREAMS, type JobStream } from '../../../app/jobs';
import { RpcClient } from '../../../app/rpcClient';
import type { LoadReport } from '../../../app/schemas/bulk';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { asCaller } from '../../core/jobs/jobOwner';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { jobHandlers } from './jobs';

const jobs = createJobs();
// Only the job entries are under test; the rest refuse loudly.
const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
const dispatcher = new Dispatcher({ ...unused, ...jobHandlers(jobs) } as Handlers, { streamIntervalMs: 10 });
const { server, client: end } = createMemoryWirePair();
dispatcher.attach(server, { role: 'ops', user: 'alice' });
const client = new RpcClient((m) => end.send(m));
end.onMessage((m) => client.receive(m));
afterAll(() => cancelAllJobs(jobs));

const report = (jobId: string): LoadReport => ({
  jobId,
  file: 'f.csv',
  format: 'csv',
  mode: 'merge',
  targetDb: 0,
  outcome: 'ok',
  records: 0,
  commands: 0,
  replies: 0,
  errors: 0,
  firstErrors: [],
  seconds: 0,
  opsPerSec: 0,
  recordsPerSec: 0,
  swapped: false,
  warnings: [],
});
const indexState = {
  status: 'building',
  jobId: null,
  scanned: 1,
  total: 2,
  complete: false,
  names: 'indexed',
  bytes: 0,
  budgetBytes: 1,
  deep: false,
  deepDone: 0,
  startedAt: null,
  finishedAt: null,
  seconds: 0,
  error: null,
  stale: null,
  rechecking: false,
} as const;
const actionCounts = { scanned: 1, total: 2, matched: 1, acted: 0, skipped: 0, errors: 0, seconds: 0, shards: [] };
const failed = { kind: 'failed', error: { code: 'TIMEOUT', message: 'the server stopped answering' } } as const;

/**
 * Starts a job of each kind straight on its manager: `gate` resolving ends it with its final
 * event (a load's report; the others' failed outcome), after one event that is not final.
 */
type Start = (gate: (signal: AbortSignal) => Promise<void>) => string;
const starts: { [N in JobStream]: Start } = {
  'bulk.progress': (gate) =>
    jobs.bulk.start('t', async (id, emit, signal) => {
      emit({ kind: 'phase', phase: 'loading', message: 'loading', at: 1 });
      await gate(signal);
      return report(id);
    }),
  'sampling.progress': (gate) =>
    jobs.sampling.start('t', async (_id, emit, signal) => {
      emit({ kind: 'progress', examined: 1, target: 2, keysPerSec: 1, elapsedMs: 1 });
      await gate(signal);
      return failed;
    }),
  'trials.progress': (gate) =>
    jobs.trials.start('t', async (_id, emit, signal) => {
      emit({ kind: 'progress', step: 'pipeline', done: 1, total: 2, opsPerSec: 1, elapsedMs: 1 });
      await gate(signal);
      return failed;
    }),
  'audience.progress': (gate) =>
    jobs.audience.start('t', async (_id, emit, signal) => {
      emit({ kind: 'progress', strategy: 'sets', phase: 'timed', run: 1, runs: 2, elapsedMs: 1 });
      await gate(signal);
      return failed;
    }),
  'audience.demoProgress': (gate) =>
    jobs.demo.start('t', async (_id, emit, signal) => {
      emit({ kind: 'progress', done: 1, total: 2, commandsPerSec: 1, elapsedMs: 1 });
      await gate(signal);
      return failed;
    }),
  'keys.index.progress': (gate) =>
    jobs.keysIndex.start('t', async (_id, emit, signal) => {
      emit({ kind: 'progress', state: indexState });
      await gate(signal);
      return failed;
    }),
  'keys.actions.progress': (gate) =>
    jobs.keyActions.start('t', async (_id, emit, signal) => {
      emit({ kind: 'progress', counts: actionCounts, rate: 1, etaSeconds: null, paused: null });
      await gate(signal);
      return failed;
    }),
  'export.progress': (gate) =>
    jobs.export.start('t', async (_id, emit, signal) => {
      emit({ kind: 'progress', counts: { keys: 1, total: 2, bytes: 10, vanished: 0, unsupported: 0 } });
      await gate(signal);
      return failed;
    }),
};

/** A stream's events until the server ends it. */
function follow(stream: JobStream, jobId: string): Promise<{ events: StreamEvent<JobStream>[]; error: AppError | undefined }> {
  return new Promise((resolve) => {
    const events: StreamEvent<JobStream>[] = [];
    client.subscribe(stream, { jobId }, { onEvents: (batch) => events.push(...batch), onEnd: (error) => resolve({ events, error }) });
  });
}

const tick = () => new Promise((r) => setTimeout(r, 30));
const kinds = Object.keys(JOB_STREAMS) as JobStream[];

describe('every job kind’s progress stream and cancel call', () => {
  it.each(kinds)('%s ends on the final event, for a subscriber there before it and one coming after', async (stream) => {
    let finish!: () => void;
    const jobId = starts[stream](() => new Promise<void>((r) => (finish = r)));
    let ended = false;
    const early = follow(stream, jobId).finally(() => (ended = true));
    await tick();
    expect(ended).toBe(false);
    finish();
    const { events, error } = await early;
    expect(error).toBeUndefined();
    const last = stream === 'bulk.progress' ? { kind: 'report', report: report(jobId) } : failed;
    expect(events.map((e) => e.kind)).toEqual([expect.not.stringMatching(/^(report|failed)$/), last.kind]);
    expect(events.at(-1)).toEqual(last);
    const late = await follow(stream, jobId);
    expect(late.error).toBeUndefined();
    expect(late.events.at(-1)).toEqual(last);
  });

  it.each(kinds)('%s: its cancel call aborts the job, whose stream then ends; a second says there was nothing left', async (stream) => {
    const jobId = starts[stream]((signal) => new Promise<void>((r) => signal.addEventListener('abort', () => r())));
    const done = follow(stream, jobId);
    await tick();
    const cancel = JOB_STREAMS[stream].cancel;
    expect(await client.invoke(cancel, { jobId })).toEqual({ cancelled: true });
    expect((await done).error).toBeUndefined();
    expect(await client.invoke(cancel, { jobId })).toEqual({ cancelled: false });
  });

  it('a load whose runner throws ends after its failed phase (a crash has no report)', async () => {
    const jobId = jobs.bulk.start('t', () => Promise.reject(new Error('boom')));
    const { events, error } = await follow('bulk.progress', jobId);
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ kind: 'phase', phase: 'failed', message: 'load crashed: boom' });
  });

  it('an analyst cancels only their own jobs: a build ops started, which every user reads, is not theirs to stop', async () => {
    const { server: analystEnd, client: analystWire } = createMemoryWirePair();
    dispatcher.attach(analystEnd, { role: 'analyst', user: 'bob' });
    const analyst = new RpcClient((m) => analystWire.send(m));
    analystWire.onMessage((m) => analyst.receive(m));
    const untilCancelled = (signal: AbortSignal) => new Promise<void>((r) => signal.addEventListener('abort', () => r()));
    const opsBuild = asCaller({ user: 'alice', role: 'analyst' }, () => starts['keys.index.progress'](untilCancelled));
    const bobsBuild = asCaller({ user: 'bob', role: 'analyst' }, () => starts['keys.index.progress'](untilCancelled));

    const refused = await analyst.invoke('keys.index.cancel', { jobId: opsBuild }).then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(refused?.code).toBe('FORBIDDEN');
    expect(refused?.message).toContain('alice');
    expect(await analyst.invoke('keys.index.cancel', { jobId: bobsBuild })).toEqual({ cancelled: true });
    // Ops may stop anyone's: the refused cancel above left the build running.
    expect(await client.invoke('keys.index.cancel', { jobId: opsBuild })).toEqual({ cancelled: true });
  });
});
