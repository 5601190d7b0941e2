import type { KeyActionCounts, KeyActionEvent, KeyActionReport } from '../../../../app/schemas/keyActions';
import { EndedViews } from '../../../lib/endedViews';
import { shareDone, type JobOutcome } from '../../../lib/jobView';
import type { FollowedJob } from '../../../lib/useJobRun';

export type ActionProgress = Extract<KeyActionEvent, { kind: 'progress' }>;

/** One run (dry or real) as the dialog shows it, folded from its `keys.actions.progress` events. */
export interface ActionView {
  progress: ActionProgress | undefined;
  /** The report once the run ended; a failed run may carry one too (what it did before the failure). */
  report: KeyActionReport | undefined;
  outcome: JobOutcome | undefined;
  error: { code: string; message: string } | undefined;
}

export const EMPTY_ACTION: ActionView = { progress: undefined, report: undefined, outcome: undefined, error: undefined };

/*
 * Not lib/jobView's jobFold: this stream has no `started` event and its progress carries no
 * elapsedMs (its counts carry seconds), and a `failed` event keeps its report here.
 */
function foldOne(v: ActionView, e: KeyActionEvent): ActionView {
  // Nothing follows the final event (the server replays it to a late subscriber, maybe twice).
  if (v.outcome !== undefined) return v;
  switch (e.kind) {
    case 'progress':
      // A replay after a reconnect may bring an older progress: it never replaces a newer one.
      return v.progress !== undefined && e.counts.seconds < v.progress.counts.seconds ? v : { ...v, progress: e };
    case 'done':
    case 'cancelled':
      return { ...v, report: e.report, outcome: e.kind };
    case 'failed':
      return { ...v, report: e.report, outcome: 'failed', error: e.error };
  }
}

export function foldAction(view: ActionView, events: readonly KeyActionEvent[]): ActionView {
  return events.reduce(foldOne, view);
}

/** Runs this page session followed to their end: reopening the dialog on one shows it at once. */
export const actionRuns: FollowedJob<'keys.actions.progress', ActionView> = {
  stream: 'keys.actions.progress',
  fold: foldAction,
  empty: EMPTY_ACTION,
  ended: new EndedViews<ActionView>(),
};

/** The latest counts: the report's once there is one, else the last progress's. */
export function countsOf(v: ActionView): KeyActionCounts | undefined {
  return v.report ?? v.progress?.counts;
}

/** Share done, 0..1: keys SCAN walked over the keys the shards held when the run began. */
export function fractionOf(v: ActionView): number | undefined {
  const c = countsOf(v);
  return shareDone(v.outcome, c?.scanned ?? 0, c?.total);
}
