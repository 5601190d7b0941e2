import { contract, type Name } from '../../app/contract';
import { ROLES, roleAllows, type Role } from '../../app/define';
import type { SessionInfo } from './sessionApi';

/** The role a page acts with: the signed-in one, or ops where nobody signs in (desktop, local mode). */
export function roleOf(session: SessionInfo): Role {
  if (!session.authRequired) return 'ops';
  return session.role ?? ROLES[0];
}

/** The role the contract asks for `name`: the one table pages and controls follow. */
export function roleNeeded(name: Name): Role {
  return contract[name].role;
}

/** Whether `name` is above the lowest role, i.e. some signed-in users may not use it. */
export function isRestricted(name: Name): boolean {
  return roleNeeded(name) !== ROLES[0];
}

export interface Permission {
  allowed: boolean;
  /** Why not, in the words the page uses; undefined when allowed. */
  reason: string | undefined;
}

/** Whether a session may use `name`, and the sentence to show beside a control it may not. */
export function permissionOf(session: SessionInfo, name: Name): Permission {
  const have = roleOf(session);
  const need = roleNeeded(name);
  if (roleAllows(have, need)) return { allowed: true, reason: undefined };
  return { allowed: false, reason: needsRoleText(need, have) };
}

/** "Needs the ops role; you are signed in as analyst." Shared with the page-level notice. */
export function needsRoleText(need: Role, have: Role): string {
  return `Needs the ${need} role; you are signed in as ${have}.`;
}
