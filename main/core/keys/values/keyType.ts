import type { KeyType } from '../../../../app/schemas/sampling';

const NATIVE: ReadonlySet<string> = new Set(['string', 'hash', 'list', 'set', 'zset', 'stream']);

/** TYPE's reply as the contract's type: a native type, 'other' for a module type (TYPE names the module's type), null for 'none'. */
export function keyTypeOf(reply: string): { type: KeyType | null; moduleType: string | null } {
  if (reply === 'none') return { type: null, moduleType: null };
  if (NATIVE.has(reply)) return { type: reply as KeyType, moduleType: null };
  return { type: 'other', moduleType: reply };
}

/** The O(1) length command of each native type. */
export const LENGTH_COMMAND: Record<Exclude<KeyType, 'other'>, string> = {
  string: 'STRLEN',
  hash: 'HLEN',
  list: 'LLEN',
  set: 'SCARD',
  zset: 'ZCARD',
  stream: 'XLEN',
};
