import { useSyncExternalStore } from 'react';
import type { TrialKind } from '../../../app/schemas/trials';
import { EndedViews } from '../../lib/endedViews';
import type { FollowedJob } from '../../lib/useJobRun';
import type { TrialForm } from './form';
import { KeptRuns, type KeptRun } from './keptRuns';
import { EMPTY_TRIAL, foldTrial, type TrialView } from './trialView';

/**
 * What the page remembers while its code is loaded (leaving the page and coming
 * back keeps it; a reload forgets it): the form and the last run per profile, and
 * the runs kept for comparison.
 */

/** The last run started on one profile. */
export interface CurrentRun {
  jobId: string;
  profileId: string;
  profileName: string;
  trial: TrialKind;
}

const forms = new Map<string, TrialForm>();
const current = new Map<string, CurrentRun>();

export const keptRuns = new KeptRuns();

/** Runs as the page follows them, and the views of those that ended. */
export const trialRuns: FollowedJob<'trials.progress', TrialView> = {
  stream: 'trials.progress',
  fold: foldTrial,
  empty: EMPTY_TRIAL,
  ended: new EndedViews(),
};

export function formOf(profileId: string): TrialForm | undefined {
  return forms.get(profileId);
}

export function keepForm(profileId: string, form: TrialForm): void {
  forms.set(profileId, form);
}

export function currentRun(profileId: string): CurrentRun | undefined {
  return current.get(profileId);
}

export function setCurrentRun(run: CurrentRun): void {
  current.set(run.profileId, run);
}

/** A run that ended with figures joins the kept runs, to compare. */
export function keepRun(run: CurrentRun, v: TrialView): void {
  if (v.report === undefined || (v.outcome !== 'done' && v.outcome !== 'cancelled')) return;
  keptRuns.add({ jobId: run.jobId, profileName: run.profileName, outcome: v.outcome, endedAt: Date.now(), report: v.report });
}

export function useKeptRuns(): readonly KeptRun[] {
  return useSyncExternalStore(keptRuns.subscribe, keptRuns.list);
}
