/** What the parser reports. Types only: the parser fills them, aggregators read them. */

export type RdbValueType = 'string' | 'list' | 'set' | 'zset' | 'hash' | 'stream' | 'module';

/**
 * The on-disk encoding, named as Redis names it (`OBJECT ENCODING` after a load, except where the
 * RDB holds an older form that Redis converts on load: ziplist, zipmap, quicklist, linkedlist):
 * string: int | embstr | raw; list: quicklist2 | quicklist | ziplist | linkedlist;
 * set: intset | listpack | hashtable; zset: listpack | ziplist | skiplist;
 * hash: listpack | ziplist | zipmap | hashtable | listpackex | hashtable-ttl (fields with TTLs);
 * stream: listpacks1 | listpacks2 | listpacks3; module: module.
 */
export type RdbEncoding = string;

/**
 * One key. The parser reuses ONE record object and `key` views its read buffer: both are valid
 * only during the `key` callback, so copy (Buffer.from(rec.key)) what you keep. That is what
 * lets ten million keys go by without ten million allocations.
 */
export interface RdbKeyRecord {
  db: number;
  key: Buffer;
  type: RdbValueType;
  encoding: RdbEncoding;
  /** Elements as the type's length command counts them: STRLEN, LLEN, SCARD, ZCARD, HLEN, XLEN; 0 for modules. */
  length: number;
  /** Absolute expiry in ms since the epoch, or null. */
  expiresAt: number | null;
  /** Bytes the key took in the RDB, from its first opcode (expiry, idle, freq) to the end of its value. */
  serializedBytes: number;
  /**
   * Uncompressed payload bytes: for values saved element by element, the sum of the elements'
   * lengths (members, fields and values; integers as their decimal length); for compact
   * encodings, the blobs' uncompressed sizes (which is what they occupy in memory).
   */
  valueBytes: number;
  /** The largest single element's bytes where the encoding shows it (-1 where it does not: an LZF blob not decompressed). */
  largestElement: number;
  /** Containers the value is in: quicklist or stream nodes, 1 for a single compact blob, 0 for element-by-element values. */
  nodes: number;
  /** Whether any part of the value was LZF-compressed in the file. */
  compressed: boolean;
  /** Hash fields with a TTL (hashes with field expiry), else 0. */
  fieldsWithTtl: number;
  /** Streams: consumer groups and pending entries, else 0. */
  groups: number;
  pending: number;
  /** Module values: the module type's 9-character name and encoding version, else '' and 0. */
  moduleName: string;
  moduleVersion: number;
}

export interface RdbVisitor {
  key?(rec: RdbKeyRecord): void;
  /** AUX fields (redis-ver, redis-bits, ctime, used-mem, repl-id, aof-base ...); integers arrive as their decimal text. */
  aux?(name: string, value: Buffer): void;
  selectDb?(db: number): void;
  /** RESIZEDB: the hash table sizes Redis pre-sizes with, i.e. the DB's key and expire counts when saved. */
  resizeDb?(db: number, keys: number, expires: number): void;
  /** FUNCTION2: one library's code, as its size. */
  functionLibrary?(bytes: number): void;
  /** SLOT_INFO (7.4+ cluster): keys and expires of a slot. */
  slotInfo?(slot: number, keys: number, expires: number): void;
  moduleAux?(moduleName: string, moduleVersion: number, bytes: number): void;
  /** Called every ~4 MB with the bytes read so far (after gunzip). */
  progress?(bytes: number, keys: number): void;
}

export interface RdbSummary {
  rdbVersion: number;
  /** Bytes of RDB read (after gunzip), through the checksum. */
  bytes: number;
  keys: number;
  /** `ok`: checked; `disabled`: the file says 0 (rdbchecksum no); `absent`: versions before 5 have none; `skipped`: not asked. */
  checksum: 'ok' | 'disabled' | 'absent' | 'skipped';
}
