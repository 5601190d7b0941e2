import type { Role } from '../../../../app/define';
import { AppError } from '../../../../app/errors';
import type { CommandDoc } from '../../../../app/schemas/console';
import { isAnalystRead, pageShowing } from '../catalog/analystReads';
import { isDangerous, isRead, isWrite } from '../catalog/commandPolicy';

/**
 * Commands that turn the connection into something else than a command console (a subscriber,
 * a MONITOR stream, a replica's sync), with the page made for them.
 */
const ELSEWHERE: Record<string, string> = {
  SUBSCRIBE: 'it makes the connection a subscriber that only receives messages: use the Pub/Sub page',
  PSUBSCRIBE: 'it makes the connection a subscriber that only receives messages: use the Pub/Sub page',
  SSUBSCRIBE: 'it makes the connection a subscriber that only receives messages: use the Pub/Sub page',
  MONITOR: 'it streams every command the server runs: use the Monitor page',
  SYNC: 'it makes the connection a replica receiving the whole dataset: it is for replicas, not a console',
  PSYNC: 'it makes the connection a replica receiving the whole dataset: it is for replicas, not a console',
};

/** VALIDATION on `line` for a command that belongs on another page (no Redis call made). */
export function refuseElsewhere(name: string): void {
  const why = ELSEWHERE[name.toUpperCase()];
  if (why !== undefined) throw new AppError('VALIDATION', `${name.toUpperCase()} does not run in the console: ${why}.`, 'line');
}

/** The command's ACL categories in words, for a refusal: "@write @string @slow". */
function categories(doc: CommandDoc | undefined): string {
  const c = doc?.categories ?? [];
  return c.length === 0 ? 'in no category the server lists' : `in ${c.join(' ')}`;
}

/** "Ask someone with the ops role to run it", after the page that shows the same data when there is one. */
function elsewhere(command: string): string {
  const page = pageShowing(command);
  return page === undefined ? 'Ask someone with the ops role to run it.' : `For an analyst, ${page}; ask someone with the ops role to run it.`;
}

/**
 * Our own server's refusal, before Redis sees the command: an analyst runs only what COMMAND
 * INFO puts in @read and not in @dangerous (KEYS and SORT_RO are both: refused, never held for
 * a confirmation an analyst could type back or send up front), whatever the profile's analyst
 * ACL user (or its lack) would allow at the server, and the admin reads a page already shows
 * them (INFO, CONFIG GET, CLIENT LIST, SLOWLOG GET: catalog/analystReads.ts, masked as there);
 * a refusal names the page that shows the data. A read-only-data profile (`readOnlyData` says
 * why, or undefined: readOnlyProfile.ts) runs nothing flagged `write`.
 */
export function refusal(doc: CommandDoc | undefined, command: string, role: Role, readOnlyData: string | undefined): AppError | undefined {
  const adminRead = role === 'analyst' && doc !== undefined && isAnalystRead(command);
  if (role === 'analyst' && !adminRead && !isRead(doc)) {
    const what = doc === undefined ? `${command} is not a command this server lists` : `${command} is ${categories(doc)}`;
    return new AppError('FORBIDDEN', `Analysts may run only @read commands; ${what}. ${elsewhere(command)}`, 'line');
  }
  if (role === 'analyst' && !adminRead && isDangerous(doc)) {
    return new AppError('FORBIDDEN', `Analysts never run @dangerous commands; ${command} is ${categories(doc)}. ${elsewhere(command)}`, 'line');
  }
  if (readOnlyData !== undefined && isWrite(doc)) {
    return new AppError('READ_ONLY', `${command} writes (COMMAND INFO flags it write), and ${readOnlyData}`, 'profileId');
  }
  return undefined;
}
