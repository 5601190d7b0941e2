import type { AuditEntry, AuditLog } from '../../core/audit/auditLog';
import { userKey, type Session } from '../session';

/** Who the audit log names: the signed-in user, else the shell's single user. */
export function actorOf(session: Session): string {
  return userKey(session);
}

/** Record one audited step; a closure so handlers don't repeat the user and target. */
export function auditFor(log: AuditLog, session: Session, action: string, target: string) {
  return (outcome: AuditEntry['outcome'], detail?: string) =>
    log.append({ user: actorOf(session), action, target, outcome, ...(detail === undefined ? {} : { detail }) });
}
