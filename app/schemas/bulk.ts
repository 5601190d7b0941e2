import * as z from 'zod';
import { call, stream } from '../define';
import { Db, Empty, jobIdOf, ProfileId } from './common';
import { Restrictions } from './restrictions';

/** keys-ndjson and keys-csv: what an export writes (docs/export.md), loaded back key by key, type by type. */
export const InputFormat = z.enum(['resp', 'commands', 'csv', 'tsv', 'ndjson', 'keys-ndjson', 'keys-csv']);
export const LoadMode = z.enum(['swap', 'flush', 'merge']);
export const RecordType = z.enum(['string', 'hash', 'set', 'zset', 'list']);

const Column = z.string().min(1).max(256);

export const Mapping = z
  .object({
    key: z.string().min(1, 'key template is required, e.g. user:{id}').max(1024),
    type: RecordType.default('string'),
    value: Column.optional(),
    fields: z.array(Column).min(1).max(10_000).optional(),
    member: Column.optional(),
    score: Column.optional(),
    ttl: z.number().int().min(1, 'ttl must be at least 1 second').max(2_147_483_647).optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const need = (field: 'value' | 'member' | 'score', why: string) => {
      if (m[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required ${why}` });
    };
    if (m.type === 'string') need('value', 'for type string (the column holding the value)');
    if (m.type === 'set' || m.type === 'list' || m.type === 'zset') need('member', `for type ${m.type}`);
    if (m.type === 'zset') need('score', 'for type zset');
  });
export type Mapping = z.output<typeof Mapping>;

/** An opaque handle to a file the Node side may read; the renderer never sends a path. */
export const FileId = z.string().regex(/^f_[A-Za-z0-9_-]{6,64}$/, 'not a file id');

export const LoadFile = z.object({
  fileId: FileId,
  name: z.string(),
  size: z.number(),
  origin: z.enum(['import', 'upload', 'picked', 'cli']),
});
export type LoadFile = z.output<typeof LoadFile>;

export const PreviewRow = z.object({
  line: z.number(),
  /** The command as redis-cli would show it, arguments escaped for display. */
  args: z.array(z.string()),
});

export const Preview = z.object({
  format: InputFormat,
  /** csv/tsv header, or ndjson fields of the first object. */
  columns: z.array(z.string()).optional(),
  rows: z.array(PreviewRow),
  /** The first malformed spot within the previewed rows, if any. */
  error: z.string().optional(),
});

/** --max-shrink's default: a swap may halve the live DB's key count, not more, unless told so. */
export const DEFAULT_MAX_SHRINK = 50;

export const LoadOptions = z
  .object({
    profileId: ProfileId,
    fileId: FileId,
    /** Guessed from the file extension when absent. */
    format: InputFormat.optional(),
    mapping: Mapping.optional(),
    mode: LoadMode.default('swap'),
    /** Defaults to the profile's DB. */
    targetDb: Db.optional(),
    /** swap: where to stage; default the highest empty DB (never DB 0, where applications live by default). */
    stagingDb: Db.optional(),
    /** swap: allow a non-empty staging DB (it is flushed first). */
    force: z.boolean().default(false),
    maxErrors: z.number().int().min(0).max(1_000_000).default(0),
    bgsave: z.boolean().default(false),
    waitReplicas: z.number().int().min(0).max(1000).optional(),
    /** swap and flush replace the target: the user types its DB number to confirm. */
    confirmDb: Db.optional(),
    /**
     * swap, flush: replace a DB that holds keys with an empty one (swap: also with
     * one smaller than maxShrink allows). Without it such a load is refused, the
     * live DB untouched; the refusal names this field.
     */
    allowEmpty: z.boolean().default(false),
    /** swap: refuse (unless allowEmpty) when the new DB holds more than this percentage fewer keys than the live one. */
    maxShrink: z.number().int().min(0).max(100).default(DEFAULT_MAX_SHRINK),
    /**
     * Start even though the pre-flight estimate does not fit under maxmemory with
     * an evicting maxmemory-policy. The load still stops at the first eviction.
     */
    allowEvictionRisk: z.boolean().default(false),
    /**
     * swap: switch even though other clients wrote to the live DB during the
     * load (SWAPDB discards those writes; the report counts them). Without it
     * such a load is refused at the switch, the live DB untouched.
     */
    allowLiveWrites: z.boolean().default(false),
  })
  .strict();
export type LoadOptions = z.output<typeof LoadOptions>;

/** A master lists at most this many replicas in a progress event; `replicasMore` counts the rest. */
export const MAX_PROGRESS_REPLICAS = 16;

/**
 * One replica of the loaded master, from the master's INFO replication during the load:
 * `lagBytes` is master_repl_offset minus the offset the replica last acknowledged, `lagSeconds`
 * the seconds since that acknowledgement (replicas acknowledge about once a second).
 */
export const ReplicaLag = z.object({
  addr: z.string().max(300),
  state: z.string().max(40),
  offset: z.number(),
  lagBytes: z.number(),
  lagSeconds: z.number(),
});
export type ReplicaLag = z.output<typeof ReplicaLag>;

export const LoadPhase = z.enum(['preflight', 'staging', 'loading', 'verifying', 'swapping', 'bgsave', 'replicas', 'cleanup', 'done', 'failed', 'cancelled']);

export const LoadReport = z.object({
  jobId: z.string(),
  file: z.string(),
  format: InputFormat,
  mode: LoadMode,
  targetDb: z.number(),
  stagingDb: z.number().optional(),
  outcome: z.enum(['ok', 'failed', 'cancelled']),
  /** `field`: the option that would let a refused load through (allowEmpty, allowEvictionRisk), or the input at fault. */
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }).optional(),
  records: z.number(),
  commands: z.number(),
  replies: z.number(),
  errors: z.number(),
  firstErrors: z.array(z.object({ position: z.string(), message: z.string() })),
  seconds: z.number(),
  opsPerSec: z.number(),
  /** Input rows loaded per second: what a user means by the rate (a command may carry 64 rows). */
  recordsPerSec: z.number(),
  swapped: z.boolean(),
  verify: z
    .object({
      replies: z.boolean(),
      keys: z.enum(['ok', 'mismatch', 'skipped']),
      expectedKeys: z.number().optional(),
      dbsize: z.number().optional(),
      note: z.string().optional(),
    })
    .optional(),
  /** swap, flush: the keys the new DB holds (flush: known before FLUSHDB only for an empty input) against the live DB's, as compared before the switch. */
  keyCounts: z.object({ new: z.number(), live: z.number() }).optional(),
  /**
   * swap: the live DB checked after a load that did not switch: DBSIZE before
   * and after, and how many of the keys sampled before (RANDOMKEY) are gone.
   */
  liveCheck: z
    .object({ db: z.number(), keysBefore: z.number(), keysAfter: z.number(), sampled: z.number(), missing: z.number(), unchanged: z.boolean() })
    .optional(),
  /**
   * swap: writes other clients made to the live DB between the start of
   * staging and the switch (keyspace notifications, liveWrites.ts), which
   * SWAPDB discards. `writes` absent: they could not be counted (`note` says
   * why). `discarded`: how many the switch threw away (0 when it did not switch).
   */
  liveWrites: z
    .object({
      db: z.number(),
      writes: z.number().optional(),
      discarded: z.number(),
      /** The first keys written (escaped text), at most LIVE_WRITE_SAMPLE. */
      keys: z.array(z.string()),
      note: z.string().optional(),
    })
    .optional(),
  /**
   * swap: a staging DB the load did not flush because it holds keys this load
   * did not write (another client wrote into it), or cannot tell: left as it
   * is for the user to look at, with the command that empties it.
   */
  stagingLeft: z.object({ db: z.number(), keys: z.number(), reason: z.string(), cleanCommand: z.string() }).optional(),
  /** INFO stats evicted_keys grown during the load (server-wide; summed over masters for a cluster). */
  evictedKeys: z.number().optional(),
  bgsave: z.object({ seconds: z.number(), status: z.string() }).optional(),
  /**
   * --wait-replicas: each replica's offset after the wait, whether it reached the master's offset
   * as of the end of the load (`acked`: caught up), and `behind`, the bytes it still lacked of it.
   */
  replicas: z.array(z.object({ addr: z.string(), offset: z.number(), acked: z.boolean(), behind: z.number().optional() })).optional(),
  /**
   * The most each replica lagged while the pipe ran, as sampled about once a second (ReplicaLag);
   * absent when never sampled (INFO refused: the restrictions say so), [] for a master without replicas.
   */
  replicaLag: z
    .array(z.object({ addr: z.string(), maxLagBytes: z.number(), maxLagSeconds: z.number() }))
    .max(MAX_PROGRESS_REPLICAS)
    .optional(),
  saveConfig: z.object({ original: z.string(), restored: z.boolean(), note: z.string().optional() }).optional(),
  /** Cluster loads: per master, the commands sent to it, its error replies and the redirects it answered. */
  nodes: z.array(z.object({ address: z.string(), commands: z.number(), errors: z.number(), redirected: z.number() })).optional(),
  /** Cluster loads: MOVED, ASK and TRYAGAIN replies met, each command resent once to where it belongs. */
  redirects: z.object({ moved: z.number(), ask: z.number(), tryagain: z.number() }).optional(),
  /**
   * Stale staging DBs (stamped by a load that is no longer running, see
   * stagingMarker.ts) that this load flushed before it began.
   */
  staleCleaned: z
    .array(
      z.object({
        db: z.number(),
        keys: z.number(),
        jobId: z.string(),
        host: z.string(),
        startedAt: z.number(),
        phase: z.enum(['loading', 'old-data']),
      }),
    )
    .optional(),
  /**
   * The protections this load did not apply, each with the command the server refused or lacks
   * (a managed service's renamed commands, an ACL user without @admin or @dangerous): "CONFIG:
   * automatic saves were not turned off". Absent when nothing was missing.
   */
  restrictions: Restrictions.optional(),
  warnings: z.array(z.string()),
});
export type LoadReport = z.output<typeof LoadReport>;

export const LoadEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('phase'), phase: LoadPhase, message: z.string(), at: z.number() }),
  z.object({
    kind: z.literal('progress'),
    at: z.number(),
    records: z.number(),
    commands: z.number(),
    replies: z.number(),
    errors: z.number(),
    bytesRead: z.number(),
    bytesTotal: z.number().optional(),
    opsPerSec: z.number(),
    recordsPerSec: z.number(),
    etaSeconds: z.number().optional(),
    usedMemory: z.number().optional(),
    /** The master's replicas as last sampled (about once a second); absent until the first reading, [] for none. */
    replicas: z.array(ReplicaLag).max(MAX_PROGRESS_REPLICAS).optional(),
    /** Replicas past MAX_PROGRESS_REPLICAS, not listed. */
    replicasMore: z.number().optional(),
    /** Why replica lag is not shown: "INFO refused". */
    replicasUnknown: z.string().max(200).optional(),
  }),
  z.object({ kind: z.literal('warning'), message: z.string(), at: z.number() }),
  z.object({ kind: z.literal('report'), report: LoadReport }),
]);
export type LoadEvent = z.output<typeof LoadEvent>;

/** One thing the cleanup at the server's start put right (main/startupLeftovers.ts): a stale staging DB flushed, `save` restored. */
export const StartupCleanup = z.object({
  /** Epoch ms. */
  at: z.number(),
  address: z.string(),
  /** A staging DB flushed: its number and key count. Absent for a restored save config. */
  db: z.number().optional(),
  keys: z.number().optional(),
  message: z.string(),
});
export type StartupCleanup = z.output<typeof StartupCleanup>;

export const JobId = jobIdOf('load');

export const bulk = {
  'bulk.files': call({
    summary: 'Files that can be loaded: the server import folder, uploads, and files picked on the desktop',
    role: 'ops',
    input: Empty,
    output: z.object({ files: z.array(LoadFile), uploadLimitBytes: z.number().optional(), canPick: z.boolean() }),
  }),
  'bulk.pick': call({
    summary: 'Desktop only: a main-process file dialog; the renderer never sends a path',
    role: 'ops',
    input: Empty,
    output: z.object({ file: LoadFile.nullable() }),
  }),
  'bulk.preview': call({
    summary: 'The first rows of a file with the mapping applied, as commands',
    role: 'ops',
    input: z
      .object({
        fileId: FileId,
        format: InputFormat.optional(),
        mapping: Mapping.optional(),
        rows: z.number().int().min(1).max(100).default(10),
      })
      .strict(),
    output: Preview,
  }),
  'bulk.start': call({
    summary: 'Start a load; follow it with bulk.progress (its history is replayed to late subscribers)',
    role: 'ops',
    input: LoadOptions,
    output: JobId,
  }),
  'bulk.cancel': call({
    summary: 'Cancel a running load: staging discarded, config restored, live DB untouched',
    role: 'ops',
    input: JobId,
    output: z.object({ cancelled: z.boolean() }),
  }),
  'bulk.leftovers': call({
    summary: 'What the cleanup at start put right after loads that died: stale staging DBs flushed, save configs restored',
    role: 'ops',
    input: Empty,
    output: z.object({ cleanups: z.array(StartupCleanup) }),
  }),
  'bulk.progress': stream({
    summary: 'Phases, progress (at most 10 a second), warnings and the final report of one load',
    role: 'ops',
    input: JobId,
    event: LoadEvent,
  }),
} as const;
