import type { Role } from '../../app/define';

/** Who is on the other end of a wire. `role: null` means not signed in. */
export interface Session {
  role: Role | null;
  user?: string;
}
