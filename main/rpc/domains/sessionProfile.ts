import type { Role } from '../../../app/define';
import { AppError } from '../../../app/errors';
import type { ProfileStore } from '../../core/pool/profileStore';
import type { ProfileId } from '../../../app/schemas/common';
import type { StoredProfile } from '../../core/pool/types';
import type { Session } from '../session';

/**
 * The dispatcher checks the role before any handler runs, so a handler always
 * sees one; were it ever missing, the lesser role is the safe side to err on.
 */
export function roleOf(session: Session): Role {
  return session.role ?? 'analyst';
}

/**
 * The id a session's connections to a profile live under: an analyst's carries
 * the profile's analyst Redis credentials when it has some (ProfileStore.forRole).
 */
export function connectionOf(profiles: Pick<ProfileStore, 'forRole'>, profileId: ProfileId, session: Session): string {
  return profiles.forRole(profileId, roleOf(session));
}

/** The profile stored under `id`, or NOT_FOUND on the input field that named it. */
export function storedProfile(profiles: Pick<ProfileStore, 'get'>, id: string, field = 'profileId'): StoredProfile {
  const profile = profiles.get(id);
  if (profile === undefined) throw noProfile(id, field);
  return profile;
}

/**
 * The connection id a session reaches `profileId` under (connectionOf) and the
 * profile stored there; NOT_FOUND names the id the caller sent, not the connection id.
 */
export function sessionProfile(
  profiles: Pick<ProfileStore, 'forRole' | 'get'>,
  profileId: ProfileId,
  session: Session,
): { connectionId: string; profile: StoredProfile } {
  const connectionId = connectionOf(profiles, profileId, session);
  const profile = profiles.get(connectionId);
  if (profile === undefined) throw noProfile(profileId, 'profileId');
  return { connectionId, profile };
}

function noProfile(id: string, field: string): AppError {
  return new AppError('NOT_FOUND', `No connection profile with id "${id}"`, field);
}
