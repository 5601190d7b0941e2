import { useEffect, useRef } from 'react';
import type { AppError } from '../../../app/errors';
import { useStream } from '../../bridge/useStream';
import { endedView, keepEnded, type CurrentRun } from './pageSession';
import { EMPTY_RUN, foldRun, type RunView } from './runView';

export interface AudienceRunState {
  view: RunView;
  /** Why the progress stream ended early, if it did. */
  streamError: AppError | undefined;
  /** Progress updates the server dropped because the page was slow. */
  dropped: number;
}

/**
 * One trial, followed over `audience.progress` (the server replays what a late
 * subscriber missed). When it ends its view is remembered and `onEnded` runs once
 * (the page reloads the saved runs then).
 */
export function useAudienceRun(run: CurrentRun | undefined, onEnded: () => void): AudienceRunState {
  const remembered = run === undefined ? undefined : endedView(run.jobId);
  const input = run === undefined || remembered !== undefined ? undefined : { jobId: run.jobId };
  const stream = useStream('audience.progress', input, foldRun, EMPTY_RUN);
  const ended = useRef(onEnded);
  useEffect(() => {
    ended.current = onEnded;
  });

  useEffect(() => {
    if (run === undefined || remembered !== undefined || stream.value.outcome === undefined) return;
    keepEnded(run.jobId, stream.value);
    ended.current();
  }, [run, remembered, stream.value]);

  return {
    view: remembered ?? stream.value,
    streamError: remembered === undefined ? stream.error : undefined,
    dropped: remembered === undefined ? stream.dropped : 0,
  };
}
