import { EndedViews } from '../../lib/endedViews';
import { localStore, readJson, writeJson } from '../../lib/storage';
import type { FollowedJob } from '../../lib/useJobRun';
import { DEFAULT_FORM, type AudienceForm } from './form';
import { isDefaultLayout, parseStoredLayout } from './layout';
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

/** The key layout outlives a reload: an analyst's own key names are set once per profile. */
const layoutKey = (profileId: string) => `cacheboard:audience-layout:${profileId}`;

/** The form kept for a profile, or a fresh one with the profile's stored key layout. */
export function formOf(profileId: string): AudienceForm {
  return forms.get(profileId) ?? { ...DEFAULT_FORM, layout: readJson(localStore(), layoutKey(profileId), parseStoredLayout) ?? DEFAULT_FORM.layout };
}

export function keepForm(profileId: string, form: AudienceForm): void {
  if (forms.get(profileId)?.layout !== form.layout) writeJson(localStore(), layoutKey(profileId), isDefaultLayout(form.layout) ? undefined : form.layout);
  forms.set(profileId, form);
}

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
