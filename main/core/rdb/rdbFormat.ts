/**
 * The RDB format's numbers, from Redis's src/rdb.h (7.0 to 8.x) and Valkey's (8, 9). They are
 * fixed on disk, so they live here once; the parser and the tests' hand-built fixtures use them.
 */

/** Value types (the byte before a key). */
export const T = {
  STRING: 0,
  LIST: 1, // linked list of strings, before 3.2
  SET: 2,
  ZSET: 3, // scores as text
  HASH: 4,
  ZSET_2: 5, // scores as binary doubles
  MODULE_PRE_GA: 6, // 4.0 release candidates: cannot be skipped without the module
  MODULE_2: 7,
  HASH_ZIPMAP: 9,
  LIST_ZIPLIST: 10,
  SET_INTSET: 11,
  ZSET_ZIPLIST: 12,
  HASH_ZIPLIST: 13,
  LIST_QUICKLIST: 14,
  STREAM_LISTPACKS: 15,
  HASH_LISTPACK: 16,
  ZSET_LISTPACK: 17,
  LIST_QUICKLIST_2: 18,
  STREAM_LISTPACKS_2: 19,
  SET_LISTPACK: 20,
  STREAM_LISTPACKS_3: 21,
  // Hash field TTLs, Redis 7.4+. 22 means something else in Valkey 9 (RDB 80), so it is only read as Redis's below 80.
  HASH_METADATA_PRE_GA: 22,
  HASH_LISTPACK_EX_PRE_GA: 23,
  HASH_METADATA: 24,
  HASH_LISTPACK_EX: 25,
} as const;

/** Opcodes: bytes in the type position that are not keys. */
export const OP = {
  SLOT_INFO: 244,
  FUNCTION2: 245,
  FUNCTION_PRE_GA: 246,
  MODULE_AUX: 247,
  IDLE: 248,
  FREQ: 249,
  AUX: 250,
  RESIZEDB: 251,
  EXPIRETIME_MS: 252,
  EXPIRETIME: 253,
  SELECTDB: 254,
  EOF: 255,
} as const;

/** Length encodings: the top two bits of the first byte. */
export const LEN = { BITS6: 0, BITS14: 1, BITS32: 0x80, BITS64: 0x81, ENCVAL: 3 } as const;
/** Special string encodings (ENCVAL's low six bits). */
export const ENC = { INT8: 0, INT16: 1, INT32: 2, LZF: 3 } as const;

/** Typed items of a module value or module aux (RDB_MODULE_OPCODE_*). */
export const MODULE_OP = { EOF: 0, SINT: 1, UINT: 2, FLOAT: 3, DOUBLE: 4, STRING: 5 } as const;
/** The 64-character set a module type's 9-character name is written in (moduleTypeNameByID). */
export const MODULE_NAME_CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Quicklist 2 node containers (quicklist.h). */
export const QUICKLIST_NODE = { PLAIN: 1, PACKED: 2 } as const;

/** Highest RDB version of Redis we know every type and opcode of (7.4 and 8.0 write 12). */
export const MAX_REDIS_RDB_VERSION = 12;
/** Valkey 9 writes 80 and reads 12..79 as foreign (Redis) formats it refuses. */
export const VALKEY_RDB_VERSION = 80;
/** The checksum trails files from version 5. */
export const FIRST_CHECKSUMMED_VERSION = 5;
