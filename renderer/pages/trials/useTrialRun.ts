import { useEffect } from 'react';
import type { AppError } from '../../../app/errors';
import { useStream } from '../../bridge/useStream';
import { endedView, keepEnded, keptRuns, type CurrentRun } from './pageSession';
import { EMPTY_TRIAL, foldTrial, type TrialView } from './trialView';

export interface TrialRunState {
  view: TrialView;
  /** Why the progress stream ended early, if it did. */
  streamError: AppError | undefined;
  /** Progress updates the server dropped because the page was slow. */
  dropped: number;
}

/**
 * One run, followed over `trials.progress` (the server replays what a late
 * subscriber missed). When it ends, its view is remembered, and a run with
 * figures joins the kept runs for comparison.
 */
export function useTrialRun(run: CurrentRun | undefined): TrialRunState {
  const remembered = run === undefined ? undefined : endedView(run.jobId);
  const stream = useStream('trials.progress', run === undefined || remembered !== undefined ? undefined : { jobId: run.jobId }, foldTrial, EMPTY_TRIAL);
  const view = remembered ?? stream.value;

  useEffect(() => {
    const v = stream.value;
    if (run === undefined || remembered !== undefined || v.outcome === undefined) return;
    keepEnded(run.jobId, v);
    if (v.report !== undefined && v.outcome !== 'failed') {
      keptRuns.add({ jobId: run.jobId, profileName: run.profileName, outcome: v.outcome, endedAt: Date.now(), report: v.report });
    }
  }, [run, remembered, stream.value]);

  return {
    view,
    streamError: remembered === undefined ? stream.error : undefined,
    dropped: remembered === undefined ? stream.dropped : 0,
  };
}
