import type { ProfileView } from '../../../app/schemas/connections';
import { MODES, modeNames, type LoadMode } from './setup';

/** What the server says when a cluster load asks for swap; shown beside the disabled choice. */
export const SWAP_ON_CLUSTER = 'SWAPDB is disabled in cluster mode (a cluster has only DB 0): use flush or merge.';

export interface ModeOption {
  value: LoadMode;
  label: string;
  detail: string;
  /** Why this profile cannot run the mode; the choice is disabled and says so. */
  refused?: string;
}

type Target = Pick<ProfileView, 'topology'> | undefined;

/**
 * Why `mode` cannot run on the profile, if it cannot. swap ends in SWAPDB,
 * which Redis refuses in cluster mode (every node has DB 0 only), so the
 * server would refuse the load: better not to offer it.
 */
export function modeRefusal(mode: LoadMode, profile: Target): string | undefined {
  return mode === 'swap' && profile?.topology?.kind === 'cluster' ? SWAP_ON_CLUSTER : undefined;
}

export function modeOptions(profile: Target): ModeOption[] {
  return modeNames.map((m) => {
    const refused = modeRefusal(m, profile);
    return { value: m, label: m, detail: MODES[m], ...(refused === undefined ? {} : { refused }) };
  });
}

/**
 * The mode the form runs with: the one chosen, or merge when the profile
 * refuses it (swap, the default, on a cluster). merge rather than flush: a
 * fallback must not be the mode that empties the DB; flush stays one click
 * (and the typed confirmation) away.
 */
export function modeOn(chosen: LoadMode, profile: Target): LoadMode {
  return modeRefusal(chosen, profile) === undefined ? chosen : 'merge';
}
