import * as z from 'zod';
import { call, stream } from '../define';
import { Db, jobIdOf, ProfileId } from './common';
import { KeyName, KeyType } from './sampling';

/*
 * The Keys domain: the namespace tree and its name index, finding keys, reading a value of
 * any type page by page, decoding, editing. Key names (and values) are bytes end to end:
 * inputs carry them as base64, outputs carry base64 beside the escaped text people read,
 * so any key shown can be opened, edited, renamed and deleted, whatever bytes it holds.
 *
 * Sections: common shapes; index and tree; finding; values; decoding; edits.
 */

// ---------------------------------------------------------------- common shapes

/** Longest key name the contract carries (bytes). Redis allows 512 MB; nobody browses one. */
export const MAX_KEY_BYTES = 65_536;

/** A key's exact bytes as standard base64 (may be empty: "" is a valid key). */
export const KeyBytes = z
  .string({ error: 'key must be base64 text' })
  .max(Math.ceil(MAX_KEY_BYTES / 3) * 4, `key must be at most ${MAX_KEY_BYTES} bytes`)
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'key must be base64');

/** A glob pattern's exact bytes, base64 (SCAN MATCH syntax). */
export const PatternBytes = z
  .string({ error: 'match must be base64 text' })
  .min(1, 'match must not be empty')
  .max(344, 'match must be at most 256 bytes')
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'match must be base64');

/** A key as output: the escaped text people read (KeyName) and its exact bytes. */
export const KeyRef = KeyName.extend({ b64: z.string() });
export type KeyRef = z.output<typeof KeyRef>;

/**
 * Bytes of a value (a string's page, a field, a member, an item) as output: the escaped text,
 * the bytes as base64, and the full length. A long element is cut: `truncated` says so, and
 * `b64` holds only the first bytes (the value's own paging reads the rest).
 */
export const ValueBytes = z.object({
  text: z.string(),
  b64: z.string(),
  bytes: z.number(),
  truncated: z.boolean(),
});
export type ValueBytes = z.output<typeof ValueBytes>;

/** Where a call reads: a profile, and its own DB when `db` is absent. */
const Where = { profileId: ProfileId, db: Db.optional() };

export const Separator = z
  .string({ error: 'separator must be text' })
  .min(1, 'separator must not be empty')
  .max(8, 'separator must be at most 8 characters')
  .default(':');

export const KeysJobId = jobIdOf('keys');

// ---------------------------------------------------------------- index and tree

/** Where the name index of one (profile, db, separator) stands. */
export const IndexState = z.object({
  status: z.enum(['none', 'building', 'ready', 'failed', 'cancelled']),
  jobId: z.string().nullable(),
  /** Keys scanned so far, over every master. */
  scanned: z.number(),
  /** DBSIZE summed over the masters when the scan began (a moving target on a live server). */
  total: z.number(),
  /** Every master's SCAN reached cursor 0: counts are for the whole DB. */
  complete: z.boolean(),
  /** Names are held in the compact index ("indexed"), or the budget ran out ("over-budget"): folders then list by paced SCAN MATCH. */
  names: z.enum(['indexed', 'over-budget']),
  /**
   * Folders took half the budget: folders first seen after that are not listed (their keys
   * still count in every folder above them, so a folder's count can exceed its children's sum).
   */
  foldersCapped: z.boolean().optional(),
  /** Bytes the index holds now, and its budget. */
  bytes: z.number(),
  budgetBytes: z.number(),
  /** The deep index (type, TTL, MEMORY USAGE per key) was asked for, and how far it is. */
  deep: z.boolean(),
  deepDone: z.number(),
  startedAt: z.number().nullable(),
  /** When the build ended (ms since the epoch): the page says how old the index is. */
  finishedAt: z.number().nullable(),
  seconds: z.number(),
  error: z.string().nullable(),
  /**
   * What changed in the DB since the build and is not (yet) in the index, in words: a bulk
   * action that ran after it (or during its scan); null when the index is as its scan found it.
   */
  stale: z.string().nullable(),
  /** The keys a bulk delete may have removed are being checked now; `stale` says which. */
  rechecking: z.boolean(),
  /**
   * The index is kept while the process runs and reused when the page opens again; once its
   * scan is older than this (ms), opening the page scans again (keys.index.open). These four
   * are always set by the server; optional so a state made elsewhere (a test's) need not.
   */
  maxAgeMs: z.number().optional(),
  /** The scan is older than maxAgeMs: the next keys.index.open re-scans. */
  expired: z.boolean().optional(),
  /** Keys added or taken out since the scan by key edits and bulk actions (from their own results, not a re-scan). */
  followed: z.number().optional(),
  /**
   * How the SCAN COUNT was held under the server's slowlog-log-slower-than (the lowest of any
   * node, µs; null when the slowlog is off), whether that threshold was assumed (CONFIG GET
   * refused: the default 10 ms), the largest COUNT sent and the slowest SCAN round trip (ms).
   */
  scanCount: z.object({ slowlogUs: z.number().nullable(), assumed: z.boolean(), largestCount: z.number(), slowestMs: z.number() }).nullable().optional(),
});
export type IndexState = z.output<typeof IndexState>;

/** One node of the tree under a prefix: a folder (prefix + segment + separator) or a key. */
export const TreeNode = z.object({
  kind: z.enum(['folder', 'key']),
  /** The whole prefix (folder) or key name. */
  ref: KeyRef,
  /** The last segment alone, as the tree shows it. */
  label: z.string(),
  /** Keys under the folder (1 for a key). */
  count: z.number(),
});
export type TreeNode = z.output<typeof TreeNode>;

export const IndexEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('progress'), state: IndexState }),
  z.object({ kind: z.literal('done'), state: IndexState }),
  z.object({ kind: z.literal('cancelled'), state: IndexState }),
  z.object({ kind: z.literal('failed'), error: z.object({ code: z.string(), message: z.string() }) }),
]);

export const KeySort = z.enum(['name', 'count', 'ttl', 'memory']);

// ---------------------------------------------------------------- finding

export const ListedKey = z.object({
  key: KeyRef,
  type: KeyType.nullable(),
  /** -1 no TTL; null when not known (not in the deep index and not probed). */
  ttlMs: z.number().nullable(),
  memory: z.number().nullable(),
});
export type ListedKey = z.output<typeof ListedKey>;

// ---------------------------------------------------------------- values

export const KeyMeta = z.object({
  key: KeyRef,
  exists: z.boolean(),
  type: KeyType.nullable(),
  /** A module type's own name (e.g. "ReJSON-RL"), when type is "other". */
  moduleType: z.string().nullable(),
  encoding: z.string().nullable(),
  /** STRLEN, HLEN, LLEN, SCARD, ZCARD or XLEN. */
  length: z.number().nullable(),
  /** MEMORY USAGE (SAMPLES 5), bytes. */
  memory: z.number().nullable(),
  /** -1 no TTL. */
  ttlMs: z.number().nullable(),
  /** OBJECT FREQ under an LFU policy, else null. */
  freq: z.number().nullable(),
  /** OBJECT IDLETIME under any other policy, else null. */
  idleSeconds: z.number().nullable(),
  evictionPolicy: z.string().nullable(),
  /** DUMP size, for a module type only (its value can't be read otherwise). */
  dumpBytes: z.number().nullable(),
  /**
   * SHA-1 of the value's DUMP, read with the metadata, for a value small enough that every edit
   * can digest it again (edit/scripts/prelude.ts says how small); null past that (or for a
   * stream, whose DUMP changes as its consumers read), or when the server refused it.
   * An edit sends it back in `seen.digest`.
   */
  digest: z.string().nullable(),
  /** The server has hash-field expiration (HTTL, by COMMAND INFO): a hash's fields show their TTLs. */
  fieldTtls: z.boolean(),
});
export type KeyMeta = z.output<typeof KeyMeta>;

/** Largest page of a string value one call returns (bytes). */
export const MAX_STRING_PAGE = 1024 * 1024;
/** The first view of a string: its first 256 KB. */
export const STRING_FIRST_PAGE = 256 * 1024;

const Count = (max: number, fallback: number) =>
  z
    .number({ error: 'count must be a number' })
    .int('count must be a whole number')
    .min(1, 'count must be at least 1')
    .max(max, `count must be ${max} or less`)
    .default(fallback);
const Offset = z.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more');

/** What page of a value to read; the kind must match the key's type. */
export const ReadPage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('string'), offset: Offset.default(0), length: Count(MAX_STRING_PAGE, STRING_FIRST_PAGE) }).strict(),
  z.object({ type: z.literal('hash'), cursor: z.string().max(32).default('0'), match: PatternBytes.optional(), count: Count(1000, 200) }).strict(),
  z.object({ type: z.literal('list'), start: Offset.default(0), fromEnd: z.boolean().default(false), count: Count(1000, 200) }).strict(),
  z.object({ type: z.literal('set'), cursor: z.string().max(32).default('0'), match: PatternBytes.optional(), count: Count(1000, 200) }).strict(),
  z
    .object({
      type: z.literal('zset'),
      by: z.enum(['rank', 'score']).default('rank'),
      /** rank: first rank; score: entries to skip past `min`. */
      start: Offset.default(0),
      min: z.string().max(64).default('-inf'),
      max: z.string().max(64).default('+inf'),
      rev: z.boolean().default(false),
      count: Count(1000, 200),
    })
    .strict(),
  z
    .object({
      type: z.literal('stream'),
      start: z.string().max(64).default('-'),
      end: z.string().max(64).default('+'),
      rev: z.boolean().default(false),
      count: Count(1000, 100),
    })
    .strict(),
  /**
   * A Redis 8 vector set (TYPE vectorset): VRANDMEMBER gives `count` distinct elements, each
   * with the first `dims` numbers of its VEMB vector. No command walks a vector set in order,
   * so each page is another sample, not the next one.
   */
  z.object({ type: z.literal('vectorset'), count: Count(100, 20), dims: Count(64, 8) }).strict(),
]);
export type ReadPage = z.output<typeof ReadPage>;

const FieldValue = z.object({ field: ValueBytes, value: ValueBytes });

export const ReadResult = z.discriminatedUnion('type', [
  z.object({ type: z.literal('string'), offset: z.number(), data: ValueBytes, total: z.number() }),
  /**
   * `ttlMs` per field: -1 none, null when the server has no hash-field expiration (no HTTL).
   * `total` is HLEN, which counts fields whose TTL passed but which Redis has not reclaimed yet.
   */
  z.object({ type: z.literal('hash'), entries: z.array(FieldValue.extend({ ttlMs: z.number().nullable() })), cursor: z.string(), total: z.number() }),
  /** Items in list order (head to tail) with their real indexes, whichever end the page was read from. */
  z.object({ type: z.literal('list'), items: z.array(z.object({ index: z.number(), value: ValueBytes })), total: z.number() }),
  z.object({ type: z.literal('set'), members: z.array(ValueBytes), cursor: z.string(), total: z.number() }),
  /** rank: by rank only (counted from the highest score when rev), null by score; total is ZCARD either way. */
  z.object({ type: z.literal('zset'), members: z.array(z.object({ rank: z.number().nullable(), member: ValueBytes, score: z.string() })), total: z.number() }),
  z.object({
    type: z.literal('stream'),
    entries: z.array(z.object({ id: z.string(), fields: z.array(FieldValue) })),
    total: z.number(),
  }),
  /** total is VCARD, dim VDIM; info VINFO's pairs as the server names them; each vector cut to the page's dims. */
  z.object({
    type: z.literal('vectorset'),
    total: z.number(),
    dim: z.number(),
    info: z.array(z.object({ name: z.string(), value: z.string() })),
    members: z.array(z.object({ element: ValueBytes, vector: z.array(z.number()) })),
  }),
]);
export type ReadResult = z.output<typeof ReadResult>;

/** Elements a find shows at most; past it, the count of the rest ("N more not shown"). */
export const FIND_MAX_SHOWN = 100;
/** Bytes of each element a find shows (the rest is cut, and says so): its events stay far under a message's 1 MiB. */
export const FIND_ELEMENT_BYTES = 256;

/**
 * Finding elements of one big hash, set or sorted set. A `match` with no glob wildcard is the
 * element's exact bytes: one round trip (HGET, SISMEMBER, ZSCORE), however big the value. A glob
 * walks the value by paced HSCAN/SSCAN/ZSCAN, matched with Redis' own glob, with progress.
 */
export const FindElements = z
  .object({
    ...Where,
    key: KeyBytes,
    type: z.enum(['hash', 'set', 'zset']),
    match: PatternBytes,
    limit: Count(FIND_MAX_SHOWN, FIND_MAX_SHOWN),
  })
  .strict();
export type FindElements = z.output<typeof FindElements>;

/** One element found: a hash field with its value (and TTL where the server has HTTL), a set member, a zset member with its score. */
export const FoundElement = z.object({
  element: ValueBytes,
  value: ValueBytes.nullable(),
  score: z.string().nullable(),
  /** Hash fields: -1 none; null where the server has no hash-field expiration. */
  ttlMs: z.number().nullable(),
});
export type FoundElement = z.output<typeof FoundElement>;

const FindCounts = {
  /** Elements the walk has read so far (an exact lookup reads none). */
  scanned: z.number(),
  /** HLEN, SCARD or ZCARD when the find began. */
  total: z.number(),
  /** Distinct elements matched so far. */
  matched: z.number(),
  /** Elements found since the previous event (the first `limit` matches only). */
  found: z.array(FoundElement),
};

/**
 * A find's events: progress while the walk goes (each with the elements found since the last),
 * then done. Stopping is unsubscribing; what was found until then stays shown.
 */
export const FindEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('progress'), ...FindCounts }),
  z.object({
    kind: z.literal('done'),
    ...FindCounts,
    /** The match was the element's exact bytes: looked up, not walked. */
    exact: z.boolean(),
    /** Matches past `limit`: counted, not shown. */
    notShown: z.number(),
  }),
]);
export type FindEvent = z.output<typeof FindEvent>;

export const StreamInfo = z.object({
  length: z.number(),
  firstId: z.string().nullable(),
  lastId: z.string().nullable(),
  lastGeneratedId: z.string(),
  groups: z.array(
    z.object({
      name: ValueBytes,
      consumers: z.number(),
      pending: z.number(),
      lastDeliveredId: z.string(),
      lag: z.number().nullable(),
      consumerList: z.array(z.object({ name: ValueBytes, pending: z.number(), idleMs: z.number() })),
      /** The oldest pending entries (XPENDING … 20). */
      pendingEntries: z.array(z.object({ id: z.string(), consumer: ValueBytes, idleMs: z.number(), deliveries: z.number() })),
    }),
  ),
});

export type StreamInfo = z.output<typeof StreamInfo>;

/**
 * One chunk of a download, in order. The stream ends after the chunk with done: true; it ends
 * with CONFLICT instead when the value's length changed mid-way (the bytes so far are not the
 * value: discard them), NOT_FOUND or VALIDATION on `key` when there is no string to download.
 */
export const DownloadEvent = z.object({
  /** Base64 of the next chunk (at most 256 KB of value). */
  chunk: z.string(),
  offset: z.number(),
  total: z.number(),
  done: z.boolean(),
});
export type DownloadEvent = z.output<typeof DownloadEvent>;

// ---------------------------------------------------------------- decoding

/**
 * How to read a string value. `auto`: after decompression, by its shape: Java (ac ed 00 05),
 * pickle (0x80 and a protocol byte), JSON (an object or array that parses), PHP serialized
 * (`a:`, `s:`, `O:`… that unserializes), msgpack (a map or array that decodes exactly), else
 * text. Protobuf is never guessed (any bytes half-parse as protobuf): ask for it.
 */
export const DecodeAs = z.enum(['auto', 'json', 'msgpack', 'php', 'pickle', 'java', 'protobuf', 'text']);
export type DecodeAs = z.output<typeof DecodeAs>;
export const Compression = z.enum(['gzip', 'deflate', 'brotli', 'zstd', 'lz4', 'snappy']);
export type Compression = z.output<typeof Compression>;
/**
 * Which compression to undo first. `auto`: the one the magic bytes name (gzip, zlib deflate,
 * zstd, lz4 frame, framed snappy); brotli and raw snappy have no magic bytes, so they are undone
 * only when named here. `none`: decode the bytes as they are.
 */
export const DecodeCompression = z.enum(['auto', 'none', ...Compression.options]);
export type DecodeCompression = z.output<typeof DecodeCompression>;

export const DecodeResult = z.object({
  /** The compression found by its magic bytes (or named) and undone, or null. */
  compression: Compression.nullable(),
  /** The format used: what `auto` detected, or what was asked. */
  format: DecodeAs.exclude(['auto']),
  /** STRLEN of the value. */
  valueBytes: z.number(),
  /** Bytes read from Redis (at most the read cap: 16 MB), and after decompression. */
  inputBytes: z.number(),
  decodedBytes: z.number(),
  /** The decoded value as pretty JSON-like text (capped); render as text only. */
  text: z.string(),
  /** The text was cut at its cap (2 MB), or only the first bytes of a longer value were read (text and protobuf only). */
  truncated: z.boolean(),
  /** Why decoding failed (position named), when it did; `text` then is "". */
  error: z.string().nullable(),
});
export type DecodeResult = z.output<typeof DecodeResult>;

// ---------------------------------------------------------------- edits

/**
 * One edit. Each edit of an existing key carries what the view showed of the key (`seen`: type,
 * length, TTL class, digest) and of the element it edits (`expect…`), so an edit made from a
 * stale view fails with CONFLICT ("changed since you opened it") instead of overwriting:
 * checked atomically on the server (one Lua script per edit) against a second writer. A key
 * deleted or recreated as another type since the view was read is a CONFLICT too.
 *
 * What the view must have loaded whole to offer an edit: `string.set` compares the SHA-1 of
 * the whole old value, so it is offered only for a string the view read whole (at most
 * MAX_STRING_PAGE bytes); `expectValue` is a whole element, so an element the view shows
 * truncated cannot be set or removed from that view.
 */
/** Largest element (a value, field or member) one edit carries: the call's message is at most 1 MiB. */
export const MAX_EDIT_BYTES = 512 * 1024;
const B = z
  .string({ error: 'must be base64 text' })
  .max(Math.ceil(MAX_EDIT_BYTES / 3) * 4, `must be at most ${MAX_EDIT_BYTES} bytes`)
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be base64');
const OptB = B.nullable();
/** A zset score as Redis reads one: a decimal or exponent float, or ±inf (ZRANGE WITHSCORES prints them so). */
export const Score = z
  .string({ error: 'must be a number' })
  .max(64, 'must be at most 64 characters')
  .regex(/^[+-]?(?:inf|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)$/i, 'must be a number (e.g. 1.5, -2, 1e3, +inf)');
/** A stream entry ID to add: `*` (the server picks), `ms-*`, `ms-seq` or `ms`. */
const NewStreamId = z
  .string()
  .max(64)
  .regex(/^(?:\*|\d+(?:-(?:\d+|\*))?)$/, 'must be * or an entry ID such as 1700000000000-0');
const StreamId = z
  .string()
  .max(64)
  .regex(/^\d+(?:-\d+)?$/, 'must be an entry ID such as 1700000000000-0');
/** A TTL in seconds, bounded so EXPIRE can never refuse it (a create's EXPIRE runs after its first write). */
const TtlSeconds = z.number().int('must be a whole number of seconds').min(1, 'must be at least 1 second').max(3_153_600_000, 'must be at most 100 years');
/**
 * What the view showed of the key, sent with every edit of an existing key and compared in the
 * edit's script: its type, its length (STRLEN, HLEN, LLEN, SCARD, ZCARD or XLEN), whether it
 * had a TTL, and the digest of its value (KeyMeta.digest). Any difference is a CONFLICT.
 * `length` and `ttl` are null only when the view could not show them (a module type has no
 * length); `digest` is null for a value too big to digest on each edit: there the check is the
 * type, length, TTL class and the element edited (see docs/keys.md).
 */
export const Seen = z
  .object({
    type: KeyType,
    length: z.number().int().min(0).nullable(),
    ttl: z.enum(['none', 'some']).nullable(),
    digest: z
      .string()
      .regex(/^[0-9a-f]{40}$/, 'must be a SHA-1 in lowercase hex')
      .nullable(),
  })
  .strict();
export type Seen = z.output<typeof Seen>;

/** What a view read with `meta` (keys.get) showed of the key, as its edits send it; null when there is no key. */
export function seenOf(meta: KeyMeta): Seen | null {
  if (!meta.exists || meta.type === null) return null;
  return { type: meta.type, length: meta.length, ttl: meta.ttlMs === null ? null : meta.ttlMs >= 0 ? 'some' : 'none', digest: meta.digest };
}
export const EditOp = z.discriminatedUnion('op', [
  /**
   * A new key with one first element, and its TTL, in one script (never a key without its TTL):
   * string: `value`; hash: `field` + `value`; list: item `value`; set: member `value`;
   * zset: member `value` + `score`; stream: an entry (ID `*`) of `field` + `value`.
   * CONFLICT if the key exists; VALIDATION (naming edit.field / edit.score) when the type's part is missing.
   */
  z
    .object({
      op: z.literal('create'),
      type: KeyType.exclude(['other']),
      value: B,
      field: B.optional(),
      score: Score.optional(),
      ttlSeconds: TtlSeconds.nullable().default(null),
    })
    .strict(),
  /** Replace a string: `expectSha1` is the SHA-1 (hex) of the whole old value the view loaded. */
  z.object({ op: z.literal('string.set'), value: B, expectSha1: z.string().regex(/^[0-9a-f]{40}$/, 'must be a SHA-1 in lowercase hex'), seen: Seen }).strict(),
  /** Append to a string as the view showed it (`seen`: its length, and its digest when small). */
  z.object({ op: z.literal('string.append'), value: B, seen: Seen }).strict(),
  /** Set a field: `expectValue` is its old value, or null for a field the view did not have (it must not exist). */
  z.object({ op: z.literal('hash.set'), field: B, value: B, expectValue: OptB, seen: Seen }).strict(),
  z.object({ op: z.literal('hash.delete'), field: B, expectValue: B, seen: Seen }).strict(),
  /** Push onto a list (no expectation: a push overwrites nothing); the key must still be a list. */
  z.object({ op: z.literal('list.push'), value: B, end: z.enum(['head', 'tail']), seen: Seen }).strict(),
  /** Set or remove the item at `index` (negative: from the tail), which must still be `expectValue`. */
  z.object({ op: z.literal('list.set'), index: z.number().int(), value: B, expectValue: B, seen: Seen }).strict(),
  z.object({ op: z.literal('list.remove'), index: z.number().int(), expectValue: B, seen: Seen }).strict(),
  z.object({ op: z.literal('set.add'), member: B, seen: Seen }).strict(),
  /** The member must still be in the set. */
  z.object({ op: z.literal('set.remove'), member: B, seen: Seen }).strict(),
  /** Add a member or change its score: `expectScore` is its old score, or null for a new member (it must not exist). */
  z.object({ op: z.literal('zset.add'), member: B, score: Score, expectScore: Score.nullable(), seen: Seen }).strict(),
  /** ZINCRBY of a member the view showed (it must still be there). */
  z.object({ op: z.literal('zset.incr'), member: B, by: Score, seen: Seen }).strict(),
  /** The member must still be in the zset. */
  z.object({ op: z.literal('zset.remove'), member: B, seen: Seen }).strict(),
  z
    .object({
      op: z.literal('stream.add'),
      id: NewStreamId.default('*'),
      fields: z
        .array(z.object({ field: B, value: B }))
        .min(1)
        .max(1000),
      seen: Seen,
    })
    .strict(),
  /** The entry must still be in the stream. */
  z.object({ op: z.literal('stream.delete'), id: StreamId, seen: Seen }).strict(),
  z.object({ op: z.literal('ttl.set'), ttlSeconds: TtlSeconds, seen: Seen }).strict(),
  z.object({ op: z.literal('ttl.remove'), seen: Seen }).strict(),
  /**
   * A hash field's TTL (servers with HTTL: Redis 7.4+, Valkey 9): HEXPIRE `ttlSeconds`, or
   * HPERSIST when null. The field must still hold `expectValue`. VALIDATION on a server without it.
   */
  z.object({ op: z.literal('hash.ttl'), field: B, expectValue: B, ttlSeconds: TtlSeconds.nullable(), seen: Seen }).strict(),
  /**
   * RENAMENX, or RENAME when `overwrite` is confirmed (CONFLICT naming edit.to when the name is
   * taken and it is not). On a cluster both names must hash to the same slot (a hash tag).
   */
  z.object({ op: z.literal('rename'), to: KeyBytes, overwrite: z.boolean().default(false), seen: Seen }).strict(),
  /** UNLINK. */
  z.object({ op: z.literal('delete'), seen: Seen }).strict(),
]);
export type EditOp = z.output<typeof EditOp>;

// ---------------------------------------------------------------- the entries

export const keys = {
  'keys.index.start': call({
    input: z.object({ ...Where, separator: Separator, deep: z.boolean().default(false) }).strict(),
    output: KeysJobId,
    role: 'analyst',
    summary:
      'Start (or restart: Refresh) the background SCAN that builds the namespace tree and name index of a DB; `deep` also records type, TTL and memory per key',
  }),
  'keys.index.open': call({
    input: z.object({ ...Where, separator: Separator }).strict(),
    output: z.object({ jobId: z.string().nullable(), started: z.boolean(), state: IndexState }),
    role: 'analyst',
    summary:
      'The Keys page opens: reuse the kept index of this DB and separator, or start its scan when there is none or it is older than its stated age (state.maxAgeMs); jobId is the build to follow, if one runs',
  }),
  'keys.index.progress': stream({
    input: KeysJobId,
    event: IndexEvent,
    role: 'analyst',
    summary: 'Progress of an index build, replayed to a late subscriber',
  }),
  'keys.index.cancel': call({
    input: KeysJobId,
    output: z.object({ cancelled: z.boolean() }),
    role: 'analyst',
    summary: 'Stop an index build; what was scanned so far stays, marked incomplete',
  }),
  'keys.tree': call({
    input: z
      .object({
        ...Where,
        separator: Separator,
        /** The folder to open (bytes, ending with the separator), or "" for the root. */
        prefix: KeyBytes.default(''),
        sort: z.enum(['name', 'count']).default('name'),
        limit: Count(5000, 1000),
        offset: Offset.default(0),
      })
      .strict(),
    output: z.object({ state: IndexState, nodes: z.array(TreeNode), totalNodes: z.number() }),
    role: 'analyst',
    summary: 'The children of one folder of the tree, with key counts, from the index as it stands',
  }),
  'keys.folderStats': call({
    input: z.object({ ...Where, separator: Separator, prefix: KeyBytes, samples: Count(10_000, 500) }).strict(),
    output: z.object({
      sampled: z.number(),
      count: z.number(),
      types: z.array(z.object({ type: KeyType, count: z.number() })),
      /** Estimated total MEMORY USAGE of the folder, with its 95% interval. */
      memory: z.object({ estimate: z.number(), ciLow: z.number(), ciHigh: z.number() }),
    }),
    role: 'analyst',
    summary: "A folder's type mix and memory, from a sample of its keys",
  }),
  'keys.list': call({
    input: z
      .object({
        ...Where,
        separator: Separator,
        match: PatternBytes,
        type: KeyType.optional(),
        noTtl: z.boolean().default(false),
        sort: z.enum(['name', 'ttl', 'memory']).default('name'),
        order: z.enum(['asc', 'desc']).default('asc'),
        /** Opaque: from the previous page's answer. */
        cursor: z.string().max(256).optional(),
        limit: Count(1000, 100),
      })
      .strict(),
    output: z.object({
      keys: z.array(ListedKey),
      cursor: z.string().nullable(),
      /** Every match has been listed (no more pages). */
      complete: z.boolean(),
      /** Where the names came from: the name index, the deep index (sorted), or a paced SCAN MATCH. */
      source: z.enum(['index', 'deep', 'scan']),
      /** Total matches, when the index knows it. */
      total: z.number().nullable(),
    }),
    role: 'analyst',
    summary: 'Keys matching a glob, with optional type and no-TTL filters, page by page',
  }),
  'keys.get': call({
    input: z.object({ ...Where, key: KeyBytes }).strict(),
    output: KeyMeta,
    role: 'analyst',
    summary: "One key's metadata (type, encoding, length, memory, TTL, freq or idle time), without a scan",
  }),
  'keys.read': call({
    input: z.object({ ...Where, key: KeyBytes, page: ReadPage }).strict(),
    output: ReadResult,
    role: 'analyst',
    summary: 'One bounded page of a value (GETRANGE, HSCAN, LRANGE, SSCAN, ZRANGE, XRANGE); never a whole big value',
  }),
  'keys.findElements': stream({
    input: FindElements,
    event: FindEvent,
    role: 'analyst',
    summary:
      'Find fields or members of a hash, set or sorted set: an exact name in one round trip (HGET, SISMEMBER, ZSCORE), a glob by paced HSCAN/SSCAN/ZSCAN with progress; the first matches shown, the rest counted',
  }),
  'keys.streamInfo': call({
    input: z.object({ ...Where, key: KeyBytes }).strict(),
    output: StreamInfo,
    role: 'analyst',
    summary: "A stream's XINFO: groups, consumers and pending entries",
  }),
  'keys.download': stream({
    input: z.object({ ...Where, key: KeyBytes }).strict(),
    event: DownloadEvent,
    role: 'analyst',
    summary: "A string value's bytes, streamed chunk by chunk (GETRANGE), to save as a file",
  }),
  'keys.decode': call({
    input: z.object({ ...Where, key: KeyBytes, as: DecodeAs.default('auto'), compression: DecodeCompression.default('auto') }).strict(),
    output: DecodeResult,
    role: 'analyst',
    summary: 'A string value decompressed and decoded off the event loop, capped in size and time',
  }),
  'keys.edit': call({
    input: z.object({ ...Where, key: KeyBytes, edit: EditOp }).strict(),
    output: z.object({ key: KeyRef, meta: KeyMeta }),
    role: 'ops',
    summary: 'One edit of one key (never on a read-only profile); CONFLICT when it changed since the view was read; audited',
  }),
} as const;
