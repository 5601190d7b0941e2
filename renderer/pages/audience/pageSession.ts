import type { AudienceForm } from './form';
import type { RunView } from './runView';

/**
 * What the page remembers while its code is loaded (leaving the page and coming
 * back keeps it; a reload forgets it, and the saved runs come back from the
 * server's history): the form, the last trial and the last demo load per profile.
 */

/** The last trial started on one profile. */
export interface CurrentRun {
  jobId: string;
  profileId: string;
  profileName: string;
}

const forms = new Map<string, AudienceForm>();
const runs = new Map<string, CurrentRun>();
const demos = new Map<string, string>();
/** Views of trials that ended, by job id: coming back shows them without subscribing again. */
const ended = new Map<string, RunView>();
const MAX_ENDED = 20;

export const formOf = (profileId: string): AudienceForm | undefined => forms.get(profileId);
export const keepForm = (profileId: string, form: AudienceForm): void => void forms.set(profileId, form);

export const currentRun = (profileId: string): CurrentRun | undefined => runs.get(profileId);
export const setCurrentRun = (run: CurrentRun): void => void runs.set(run.profileId, run);

/** The job id of the last demo load started on a profile (its stream replays the end to a late subscriber). */
export const currentDemo = (profileId: string): string | undefined => demos.get(profileId);
export const setCurrentDemo = (profileId: string, jobId: string): void => void demos.set(profileId, jobId);

export const endedView = (jobId: string): RunView | undefined => ended.get(jobId);

export function keepEnded(jobId: string, view: RunView): void {
  ended.set(jobId, view);
  for (const oldest of ended.keys()) {
    if (ended.size <= MAX_ENDED) break;
    ended.delete(oldest);
  }
}
