import type { KeyType } from '../../../app/schemas/sampling';

/**
 * Encodings that belong to one type only (OBJECT ENCODING names the type with no TYPE asked).
 * The others are shared (listpack: hash, zset, and since 7.2 set and list; hashtable: hash or
 * set) or unknown to this list (a later Redis), and their key gets a TYPE. A module's value
 * reports "raw" like a long string, so "raw" counts only when no module is loaded. Read by the
 * plain Prober and written into the census script.
 */
export const TYPE_OF_ENCODING: Readonly<Record<string, KeyType>> = {
  int: 'string',
  embstr: 'string',
  raw: 'string',
  quicklist: 'list',
  linkedlist: 'list',
  intset: 'set',
  skiplist: 'zset',
  stream: 'stream',
};
