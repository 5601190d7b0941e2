import { useSyncExternalStore } from 'react';
import type { TrialKind } from '../../../app/schemas/trials';
import type { TrialForm } from './form';
import { KeptRuns, type KeptRun } from './keptRuns';
import type { TrialView } from './trialView';

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
/** Views of runs that ended, by job id: coming back shows them without subscribing again. */
const ended = new Map<string, TrialView>();
const MAX_ENDED = 20;

export const keptRuns = new KeptRuns();

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

export function endedView(jobId: string): TrialView | undefined {
  return ended.get(jobId);
}

export function keepEnded(jobId: string, view: TrialView): void {
  ended.set(jobId, view);
  for (const oldest of ended.keys()) {
    if (ended.size <= MAX_ENDED) break;
    ended.delete(oldest);
  }
}

export function useKeptRuns(): readonly KeptRun[] {
  return useSyncExternalStore(keptRuns.subscribe, keptRuns.list);
}
