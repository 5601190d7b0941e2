import { EndedViews } from '../../lib/endedViews';
import type { FollowedJob } from '../../lib/useJobRun';
import type { AudienceForm } from './form';
import { EMPTY_RUN, foldRun, type RunView } from './runView';

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

export const formOf = (profileId: string): AudienceForm | undefined => forms.get(profileId);
export const keepForm = (profileId: string, form: AudienceForm): void => void forms.set(profileId, form);

export const currentRun = (profileId: string): CurrentRun | undefined => runs.get(profileId);
export const setCurrentRun = (run: CurrentRun): void => void runs.set(run.profileId, run);

/** The job id of the last demo load started on a profile (its stream replays the end to a late subscriber). */
export const currentDemo = (profileId: string): string | undefined => demos.get(profileId);
export const setCurrentDemo = (profileId: string, jobId: string): void => void demos.set(profileId, jobId);

/** Trials as the page follows them, and the views of those that ended. */
export const audienceRuns: FollowedJob<'audience.progress', RunView> = {
  stream: 'audience.progress',
  fold: foldRun,
  empty: EMPTY_RUN,
  ended: new EndedViews(),
};
