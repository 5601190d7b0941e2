import { randomBytes } from 'node:crypto';
import type { AuditEntry, AuditFigure, AuditLog } from '../../core/audit';
import { userKey, type Session } from '../session';

/** Who the audit log names: the signed-in user, else the shell's single user. */
export function actorOf(session: Session): string {
  return userKey(session);
}

/** What an end adds to the detail: its numbers, for the page to format. */
export interface TrailExtra {
  figures?: AuditFigure[];
  /** When the run ended before this entry is written (a view kept open a moment for a reopen). */
  endedAt?: number;
}

/**
 * Record one audited run: a closure so handlers don't repeat the user and target. Its
 * start and end share a run id, and the end carries the time since the start, so the
 * log reads as one row per run (foldRuns).
 *
 * The start is the write-ahead record: written (and fsynced) before the write it announces,
 * and when it cannot be, it throws AUDIT_UNAVAILABLE, so the write is refused, not done
 * unrecorded. Every audited write calls it before sending anything. The end cannot undo
 * what was done: it is held until the log can take it (AuditLog.append).
 */
export function auditFor(log: AuditLog, session: Session, action: string, target: string) {
  const trail = auditTrail(log, session, action);
  return (outcome: AuditEntry['outcome'], detail?: string, extra: TrailExtra = {}) => trail(outcome, target, detail, extra);
}

/** auditFor with the target given per entry (the console learns the nodes a command ran on as it runs). */
export function auditTrail(log: AuditLog, session: Session, action: string) {
  const run = randomBytes(6).toString('base64url');
  let startedAt: number | undefined;
  /** The start could not be written, so the write was refused: the log holds that refusal, and nothing more is said of it. */
  let refused = false;
  return (outcome: AuditEntry['outcome'], target: string, detail?: string, extra: TrailExtra = {}) => {
    if (refused) return;
    const now = extra.endedAt ?? Date.now();
    if (outcome === 'started') startedAt = now;
    const write = outcome === 'started' ? log.appendFirst : log.append;
    try {
      write.call(log, {
        user: actorOf(session),
        action,
        target,
        outcome,
        run,
        ...(detail === undefined ? {} : { detail }),
        ...(extra.figures === undefined ? {} : { figures: extra.figures }),
        ...(outcome !== 'started' && startedAt !== undefined ? { durationMs: now - startedAt } : {}),
      });
    } catch (e) {
      refused = true;
      throw e;
    }
  };
}

/**
 * A call refused for the session's role, as an audit entry: who tried what (the
 * contract's name: precise for whoever reads the log), on which node or profile.
 */
export function refusalEntry(r: { session: Session; name: string; input: unknown; message: string }): Omit<AuditEntry, 'at'> {
  const input = (typeof r.input === 'object' && r.input !== null ? r.input : {}) as { address?: unknown; profileId?: unknown };
  const target =
    typeof input.address === 'string' ? input.address.slice(0, 300) : typeof input.profileId === 'string' ? `profile ${input.profileId.slice(0, 100)}` : '—';
  return { user: actorOf(r.session), action: r.name, target, outcome: 'refused', detail: r.message };
}
