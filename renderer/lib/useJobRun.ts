import { useEffect, useRef } from 'react';
import type { StreamEvent, StreamInput, StreamName } from '../../app/contract';
import type { AppError } from '../../app/errors';
import { useStream } from '../bridge/useStream';
import type { EndedViews } from './endedViews';
import type { JobOutcome } from './jobView';

/** The streams that follow one job by its id (the server replays what a late subscriber missed). */
type JobStream = { [N in StreamName]: StreamInput<N> extends { jobId: string } ? N : never }[StreamName];

/** One kind of job as its page follows it: the stream, the fold of its events, and where ended views are kept. */
export interface FollowedJob<N extends JobStream, V> {
  stream: N;
  fold(view: V, events: readonly StreamEvent<N>[]): V;
  empty: V;
  ended: EndedViews<V>;
}

export interface JobRun<V> {
  view: V;
  /** Why the progress stream ended early, if it did. */
  streamError: AppError | undefined;
  /** The stream failed before the job ended: the server restarted or forgot the job. */
  lost: boolean;
  /** The job is still going (one at a time per profile). */
  running: boolean;
  /** Progress updates the server dropped because the page was slow. */
  dropped: number;
}

/**
 * One job, followed over its progress stream. When it ends its view is kept, so
 * coming back to the page shows it without subscribing again, and `onEnded` runs once.
 */
export function useJobRun<N extends JobStream, V extends { outcome: JobOutcome | undefined }>(
  job: FollowedJob<N, V>,
  jobId: string | undefined,
  onEnded?: (view: V) => void,
): JobRun<V> {
  const remembered = jobId === undefined ? undefined : job.ended.get(jobId);
  // Every JobStream takes `{ jobId }` (that is how JobStream is picked); TypeScript cannot follow it through the generic name.
  const input = jobId === undefined || remembered !== undefined ? undefined : ({ jobId } as StreamInput<N>);
  const stream = useStream(job.stream, input, job.fold, job.empty);
  const ended = useRef(onEnded);
  useEffect(() => {
    ended.current = onEnded;
  });

  useEffect(() => {
    if (jobId === undefined || remembered !== undefined || stream.value.outcome === undefined) return;
    job.ended.keep(jobId, stream.value);
    ended.current?.(stream.value);
  }, [job, jobId, remembered, stream.value]);

  const view = remembered ?? stream.value;
  const streamError = remembered === undefined ? stream.error : undefined;
  // A dropped link ends the stream with DISCONNECTED; useStream subscribes again when it reopens.
  const lost = streamError !== undefined && streamError.code !== 'DISCONNECTED' && view.outcome === undefined;
  return {
    view,
    streamError,
    lost,
    running: jobId !== undefined && view.outcome === undefined && !lost,
    dropped: remembered === undefined ? stream.dropped : 0,
  };
}
