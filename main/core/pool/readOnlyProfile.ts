import { AppError } from '../../../app/errors';
import { readOnlyDataText, type ReadOnlyDataRefusal } from '../../../app/readOnlyData';
import type { StoredProfile } from './types';

export type { ReadOnlyDataRefusal };

type DataRule = Pick<StoredProfile, 'source' | 'readOnlyData'> & { spec: { name: string } };

/**
 * THE rule for "this server's data must not be written here", one for every write path (keys
 * edit, key actions, bulk load, console writes, CONFIG SET/REWRITE, CLIENT KILL/PAUSE) and for
 * the ProfileView flag the pages read: the embedded demo server (docs/deployment.md's "read-only
 * profile **Local (embedded)**", whose clients include Cacheboard's own), or a config-file
 * profile marked `"readOnly": true`. Where a profile's definition comes from (REDIS_URL, the
 * config file) is another matter (ProfileView.definitionLocked): ops write to those servers.
 */
export function isReadOnlyData(profile: DataRule): boolean {
  return profile.source === 'embedded' || profile.readOnlyData === true;
}

/** Why the profile's data may not be written (`refused` says what), or undefined when it may. */
export function readOnlyDataWhy(profile: DataRule, refusal: ReadOnlyDataRefusal): string | undefined {
  return isReadOnlyData(profile) ? readOnlyDataText({ name: profile.spec.name, source: profile.source }, refusal) : undefined;
}

/** READ_ONLY on `profileId` before any Redis call when the profile's data must not be written. */
export function refuseReadOnlyData(profile: DataRule, refusal: ReadOnlyDataRefusal): void {
  const why = readOnlyDataWhy(profile, refusal);
  if (why !== undefined) throw new AppError('READ_ONLY', why, 'profileId');
}
