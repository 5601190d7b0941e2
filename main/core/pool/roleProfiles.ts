import type { Role } from '../../../app/define';
import type { ProfileId } from '../../../app/schemas/common';
import type { StoredProfile } from './types';

/**
 * An analyst's connections to a profile with analyst credentials live in the pool
 * under a derived id, `<id>@analyst`, apart from ops' connections (the pool keys
 * connections by profile id). '@' is not allowed in a ProfileId, so a derived id
 * never collides with a real one and no client can name one directly.
 */
const SEPARATOR = '@';

export function analystIdOf(id: string): string {
  return `${id}${SEPARATOR}analyst`;
}

/** The profile id a connection id belongs to, and whether it is the analyst's. */
export function splitConnectionId(connectionId: string): { id: ProfileId; analyst: boolean } {
  const at = connectionId.lastIndexOf(SEPARATOR);
  if (at < 0 || connectionId.slice(at + 1) !== 'analyst') return { id: profileIdIn(connectionId), analyst: false };
  return { id: profileIdIn(connectionId.slice(0, at)), analyst: true };
}

/**
 * A connection id is made only from a ProfileId (analystIdOf, or the id itself), so what
 * is left of one without its suffix is that ProfileId again; an id no store holds is
 * NOT_FOUND downstream, as before.
 */
function profileIdIn(connectionId: string): ProfileId {
  return connectionId as ProfileId;
}

/**
 * The profile as analysts reach it: the same server, their own Redis user. The
 * profile's password is dropped when the analyst user has none, never lent.
 */
export function analystVariant(p: StoredProfile): StoredProfile | undefined {
  if (p.analyst === undefined) return undefined;
  const { password: _opsPassword, ...spec } = p.spec;
  const { username, password } = p.analyst;
  return {
    id: analystIdOf(p.id),
    source: p.source,
    spec: { ...spec, username, ...(password === undefined ? {} : { password }) },
    ...(p.readOnlyData === true ? { readOnlyData: true } : {}),
  };
}

/** Whether sessions of `role` connect to this profile under its analyst id. */
export function usesAnalystId(p: StoredProfile | undefined, role: Role): boolean {
  return role === 'analyst' && p?.analyst !== undefined;
}
