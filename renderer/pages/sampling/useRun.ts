import { useEffect } from 'react';
import type { AppError } from '../../../app/errors';
import { useStream } from '../../bridge/useStream';
import { finishedView, keepFinished, type KeptRun } from './runStore';
import { EMPTY_RUN, foldRun, isFinished, type RunView } from './runView';

export interface RunState {
  view: RunView;
  /** Why the progress stream ended early, if it did. */
  streamError: AppError | undefined;
  /** Progress updates the server dropped because the page was slow. */
  dropped: number;
}

/**
 * One run, followed over `sampling.progress` (the server replays what a late
 * subscriber missed). A run that ended is kept in memory, so coming back to the
 * page shows its report without subscribing again.
 */
export function useRun(run: KeptRun | undefined): RunState {
  const kept = run === undefined ? undefined : finishedView(run.jobId);
  const stream = useStream(
    'sampling.progress',
    run === undefined || kept !== undefined ? undefined : { jobId: run.jobId },
    foldRun,
    EMPTY_RUN,
  );
  const jobId = run?.jobId;
  const view = kept ?? stream.value;

  useEffect(() => {
    if (jobId !== undefined && kept === undefined && isFinished(stream.value)) keepFinished(jobId, stream.value);
  }, [jobId, kept, stream.value]);

  return { view, streamError: kept === undefined ? stream.error : undefined, dropped: kept === undefined ? stream.dropped : 0 };
}
