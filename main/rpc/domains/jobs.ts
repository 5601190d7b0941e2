import type { StreamEvent } from '../../../app/contract';
import { JOB_STREAMS, type CancelCall, type JobStream } from '../../../app/jobs';
import { jobsOf, type FollowedJobs, type JobManagers } from '../../core/jobKinds';
import type { Handlers, StreamSink } from '../handlers';

/**
 * A job's stream: its history replayed, then each event as it comes. The last word (its
 * report, cancelled or failed outcome, or a crash) ends the stream so the client knows.
 */
export function followJob<E>(jobs: FollowedJobs<E>): (args: { jobId: string }, sink: StreamSink<E>) => () => void {
  return ({ jobId }, sink) =>
    jobs.subscribe(jobId, (e, last) => {
      sink.push(e);
      if (last) queueMicrotask(() => sink.end());
    });
}

/** A job's cancel call: false when it had already ended (its final event says how). */
export function cancelJob(jobs: FollowedJobs<unknown>): (args: { jobId: string }) => { cancelled: boolean } {
  return ({ jobId }) => ({ cancelled: jobs.cancel(jobId) });
}

type JobHandlers = Pick<Handlers, JobStream | CancelCall>;

/** The progress stream and cancel call of every job kind in app/jobs.ts, over its manager. */
export function jobHandlers(jobs: JobManagers): JobHandlers {
  const handlers = (Object.keys(JOB_STREAMS) as JobStream[]).flatMap((stream) => {
    const kind = jobsOf(jobs, stream) as FollowedJobs<StreamEvent<JobStream>>;
    return [
      [stream, followJob(kind)],
      [JOB_STREAMS[stream].cancel, cancelJob(kind)],
    ] as const;
  });
  // Object.fromEntries forgets which name holds which handler; each pair above is one kind's.
  return Object.fromEntries(handlers) as unknown as JobHandlers;
}
