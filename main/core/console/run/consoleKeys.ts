import type { CommandDoc } from '../../../../app/schemas/console';
import { keySlot } from '../../resp/slot';
import { keyName } from '../../text/keyText';
import { keyIndexes } from '../catalog/commandPolicy';
import { migrateParts } from '../catalog/migrateSyntax';
import { redactArgs } from '../redact';

/** The pool's ioredis client of the profile (Redis or Cluster): COMMAND GETKEYS goes through it. */
export interface GetKeysClient {
  callBuffer(command: string, ...args: Array<string | Buffer>): Promise<unknown>;
}

/** Keys named in the audit log; the rest are counted. */
const AUDIT_KEYS = 10;

/**
 * The keys a command line names: from COMMAND INFO's key positions, or for a command whose
 * keys move with its arguments (movablekeys: EVAL, ZUNIONSTORE, XREAD…) from the server's own
 * COMMAND GETKEYS. A command GETKEYS cannot place (bad arguments, no keys) has none. A line
 * that carries a secret is never sent to GETKEYS: the server would show the secret to every
 * MONITOR (it redacts a command's secrets only where the command itself runs). MIGRATE's keys
 * are read from its syntax; another such line's keys go unnamed.
 */
export async function commandKeys(doc: CommandDoc | undefined, args: readonly Buffer[], client: () => Promise<GetKeysClient>): Promise<Buffer[]> {
  if (doc === undefined) return [];
  const pick = (at: readonly number[]): Buffer[] => at.flatMap((i) => (args[i] === undefined ? [] : [args[i]]));
  const at = keyIndexes(doc, args.length);
  if (at.length > 0 || !(doc.flags ?? []).includes('movablekeys')) return pick(at);
  const words = args.map((a) => a.toString('utf8'));
  if (doc.name === 'MIGRATE') return pick(migrateParts(words).keys);
  if (redactArgs(words).redacted) return [];
  try {
    const reply = await (await client()).callBuffer('COMMAND', 'GETKEYS', ...args);
    return Array.isArray(reply) ? reply.filter((k): k is Buffer => Buffer.isBuffer(k)) : [];
  } catch {
    return [];
  }
}

/** Keys as the audit log names them: escaped, quoted, ten at most. */
export function keysText(keys: readonly Buffer[]): string {
  if (keys.length === 0) return '';
  const shown = keys.slice(0, AUDIT_KEYS).map((k) => `"${keyName(k).text}"`);
  return ` ${shown.join(' ')}${keys.length > AUDIT_KEYS ? ` (+${keys.length - AUDIT_KEYS} more keys)` : ''}`;
}

/** Words for a CROSSSLOT error: which key hashes to which slot, and the hash tag that puts them together. */
export function crossSlotHint(keys: readonly Buffer[]): string {
  const slots = keys.slice(0, AUDIT_KEYS).map((k) => `"${keyName(k).text}" is in slot ${keySlot(k)}`);
  return (
    `A command's keys must all hash to one slot on a cluster: ${slots.join(', ')}. ` +
    'Give them a common {hash tag}, e.g. {user:1}:cart and {user:1}:orders: only the part between { and } is hashed.'
  );
}
