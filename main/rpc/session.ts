import type { Role } from '../../app/define';

/** Who is on the other end of a wire. `role: null` means not signed in. */
export interface Session {
  role: Role | null;
  user?: string;
}

/** The name per-user limits count under: local mode and the desktop have one nameless user. */
export function userKey(session: Session): string {
  return session.user ?? 'local';
}
