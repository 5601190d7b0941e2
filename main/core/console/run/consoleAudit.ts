import { keysText } from './consoleKeys';

/** The outcomes a console command is recorded with. */
export type ConsoleOutcome = 'started' | 'ok' | 'failed' | 'cancelled' | 'refused';

/** Writes one entry to the audit log (the rpc layer's AuditLog, as the session's user, action `console`); 'started' throws when it cannot, refusing the command. */
export type ConsoleAuditSink = (outcome: ConsoleOutcome, target: string, detail: string) => void;

/** Where it ran: the profile, the nodes (none yet for a refusal) and the DB. */
export interface ConsoleWhere {
  profileId: string;
  db: number;
  addresses?: readonly string[];
}

/**
 * One console command for the audit log: its name and keys (escaped), never its values and
 * never the typed line, redacted or not. `note` is in our words (why it was refused, the
 * error code of an error reply), never the server's text, which can echo arguments.
 */
export function auditConsole(
  sink: ConsoleAuditSink,
  where: ConsoleWhere,
  outcome: ConsoleOutcome,
  command: string,
  keys: readonly Buffer[],
  note?: string,
): void {
  const nodes = where.addresses === undefined || where.addresses.length === 0 ? '' : ` ${where.addresses.join(',')}`;
  sink(outcome, `profile ${where.profileId}${nodes} db ${where.db}`.slice(0, 300), `${command}${keysText(keys)}${note === undefined ? '' : `: ${note}`}`);
}

/** An error reply's code for the audit log ("WRONGTYPE", "ERR"): the first word, which never holds a value. */
export function errorCode(message: string): string {
  return /^[A-Z][A-Z_-]*/.exec(message)?.[0] ?? 'error';
}
