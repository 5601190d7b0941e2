import { readRefusal } from '../../redis/refusal';
import { textOf } from './replyShape';

/** Why the server did not answer one of the catalog's questions. */
export interface Refusal {
  kind: 'acl' | 'missing' | 'error' | 'empty';
  /** The server's words (an error reply), cut short. */
  message: string;
}

const MESSAGE_CHARS = 200;

/**
 * An error reply that refuses the command as a Refusal: NOPERM and a missing command as
 * core/redis/refusal.ts reads them (one reader for every page), plus what only the catalog
 * needs — a wrong arity (a COMMAND subcommand older servers take otherwise) is missing too, and
 * any other ERR is `error`. Anything else — the connection, a timeout, LOADING, BUSY — is not
 * the server's answer about the command, and is rethrown by the caller.
 */
export function refusalOf(err: unknown): Refusal | undefined {
  const code = typeof err === 'object' && err !== null ? textOf((err as { code?: unknown }).code) : undefined;
  const raw = err instanceof Error ? err.message : textOf(err);
  if (raw === undefined) return undefined;
  const message = raw.trim().slice(0, MESSAGE_CHARS);
  if (code === 'NOPERM') return { kind: 'acl', message };
  const refused = readRefusal(raw, ['COMMAND', 'DOCS']);
  if (refused !== undefined) return { kind: refused.kind, message };
  if (!/^ERR\b/.test(message)) return undefined;
  return { kind: /wrong number of arguments/i.test(message) ? 'missing' : 'error', message };
}

/**
 * "this server's ACL user may not run COMMAND DOCS", for a note that says why the catalog is
 * short. `server` names it ("Valkey 8.0.1", serverTitle) or is '' when INFO said nothing.
 */
export function refusalWords(command: string, refusal: Refusal, server: string): string {
  switch (refusal.kind) {
    case 'acl':
      return `this server's ACL user may not run ${command}`;
    case 'missing':
      return command === 'COMMAND DOCS'
        ? `this server${server === '' ? '' : ` (${server})`} has no COMMAND DOCS, which came in Redis 7.0`
        : `this server${server === '' ? '' : ` (${server})`} does not know ${command} ("${refusal.message}")`;
    case 'empty':
      return `this server answered ${command} with nothing`;
    case 'error':
      return `this server refused ${command} ("${refusal.message}")`;
  }
}

/** Why neither COMMAND DOCS nor COMMAND INFO answered, in one clause. */
export function bothRefusedWords(docs: Refusal, info: Refusal, server: string): string {
  if (docs.kind === 'acl' && info.kind === 'acl') return "this server's ACL user may run neither COMMAND DOCS nor COMMAND INFO";
  return `${refusalWords('COMMAND DOCS', docs, server)}, and ${refusalWords('COMMAND INFO', info, server)}`;
}
