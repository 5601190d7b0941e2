import type { StreamEvent } from '../../../app/contract';
import { JOB_STREAMS, type CancelCall, type JobStream } from '../../../app/jobs';
import { jobsOf, type FollowedJobs, type JobManagers } from '../../core/jobKinds';
import { AppError } from '../../../app/errors';
import type { CallContext, Handlers, StreamSink } from '../handlers';
import { userKey } from '../session';

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

/**
 * A job's cancel call: false when it had already ended (its final event says how). Analysts
 * may cancel only their own jobs: a shared job (an index build ops started, which every user
 * reads) is not theirs to stop.
 */
export function cancelJob(jobs: FollowedJobs<unknown>): (args: { jobId: string }, ctx: CallContext) => { cancelled: boolean } {
  return ({ jobId }, { session }) => {
    const owner = jobs.ownerOf(jobId);
    if (session.role !== 'ops' && owner !== undefined && owner.user !== userKey(session)) {
      throw new AppError('FORBIDDEN', `This job was started by ${owner.user}; only they or an ops user may cancel it`, 'jobId');
    }
    return { cancelled: jobs.cancel(jobId) };
  };
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
