import type { Role } from '../../../app/define';
import type { ProfileStore } from '../../core/pool/profileStore';
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
export function connectionOf(profiles: Pick<ProfileStore, 'forRole'>, profileId: string, session: Session): string {
  return profiles.forRole(profileId, roleOf(session));
}
