import * as z from 'zod';
import { call, stream } from '../define';
import { Db, jobIdOf, ProfileId } from './common';
import { KeyRef, PatternBytes } from './keys';
import { KeyType } from './sampling';

/*
 * Bulk key actions: delete (UNLINK), expire, persist or export every key that matches a glob
 * and its filters, over the Keys engine's paced SCAN. A run is a job: it is dry (counts, samples
 * and the memory it would free) or real (acts, counts what it did); real runs are ops only,
 * refused on a read-only profile, audited, and checkpointed per shard so a cut run can resume.
 *
 * Sections: selection; action and pace; progress and report; the entries.
 */

// ---------------------------------------------------------------- selection

const Seconds = (field: string) =>
  z
    .number({ error: `${field} must be a number of seconds` })
    .int(`${field} must be a whole number of seconds`)
    .min(0, `${field} must be 0 or more`)
    .max(10 * 365 * 86_400, `${field} must be at most ten years`);

/** Which keys a run touches: a glob (SCAN MATCH syntax, bytes as base64) and optional filters. */
export const KeySelection = z
  .object({
    match: PatternBytes,
    type: KeyType.optional(),
    /** TTL filter: keys with no TTL, or a TTL below / above `ttlSeconds`. */
    ttl: z.enum(['any', 'none', 'below', 'above']).default('any'),
    ttlSeconds: Seconds('ttlSeconds').optional(),
    /** Only keys idle at least this long (OBJECT IDLETIME; unavailable under an LFU policy). */
    idleMinSeconds: Seconds('idleMinSeconds').optional(),
    /** Only keys whose MEMORY USAGE is at least this many bytes. */
    minMemoryBytes: z.number({ error: 'minMemoryBytes must be a number' }).int().min(0, 'minMemoryBytes must be 0 or more').optional(),
  })
  .strict()
  .refine((s) => s.ttl === 'any' || s.ttl === 'none' || s.ttlSeconds !== undefined, {
    message: 'ttlSeconds is required when ttl is "below" or "above"',
    path: ['ttlSeconds'],
  });
export type KeySelection = z.output<typeof KeySelection>;

// ---------------------------------------------------------------- action and pace

export const KeyAction = z.discriminatedUnion('op', [
  /** UNLINK. */
  z.object({ op: z.literal('delete') }).strict(),
  /** EXPIRE; `onlyNoTtl` adds NX (7.0+); `jitterPct` spreads each key's TTL over ±pct of it. */
  z
    .object({
      op: z.literal('expire'),
      seconds: z
        .number({ error: 'seconds must be a number' })
        .int('seconds must be a whole number')
        .min(1, 'seconds must be 1 or more')
        .max(10 * 365 * 86_400, 'seconds must be at most ten years'),
      onlyNoTtl: z.boolean().default(false),
      jitterPct: z.number({ error: 'jitterPct must be a number' }).min(0, 'jitterPct must be 0 or more').max(100, 'jitterPct must be at most 100').default(0),
    })
    .strict(),
  /** PERSIST. */
  z.object({ op: z.literal('persist') }).strict(),
]);
export type KeyAction = z.output<typeof KeyAction>;

/** The ops a run can do: the page's three, and the CLI's export (a RESP file of RESTOREs). */
export const KeyActionOp = z.enum(['delete', 'expire', 'persist', 'export']);
export type KeyActionOp = z.output<typeof KeyActionOp>;

/**
 * How hard a run may push the server: `maxLatencyMs` is the rise over the idle PING p99 the
 * run's own probe allows (null: full speed, an explicit choice); it also waits while a replica
 * is more than `maxReplicaLagBytes` behind its master.
 */
export const Pace = z
  .object({
    maxLatencyMs: z
      .number({ error: 'maxLatencyMs must be a number' })
      .min(0.1, 'maxLatencyMs must be at least 0.1')
      .max(10_000, 'maxLatencyMs must be at most 10000')
      .nullable()
      .default(2),
    maxReplicaLagBytes: z
      .number({ error: 'maxReplicaLagBytes must be a number' })
      .int()
      .min(0, 'maxReplicaLagBytes must be 0 or more')
      .default(10 * 1024 * 1024),
  })
  .strict();
export type Pace = z.output<typeof Pace>;

export const KeyActionJobId = jobIdOf('keyact');

// ---------------------------------------------------------------- progress and report

/** One shard (a cluster master, or the one server): where its SCAN stands and what it did. */
export const ShardCounts = z.object({
  node: z.string(),
  scanned: z.number(),
  matched: z.number(),
  acted: z.number(),
  skipped: z.number(),
  errors: z.number(),
  /** Its SCAN reached cursor 0. */
  done: z.boolean(),
  /** How many keys its counts may be short by: see KeyActionCounts.short (absent: 0). */
  short: z.number().int().min(0).optional(),
});
export type ShardCounts = z.output<typeof ShardCounts>;

/** The memory the matched keys hold, estimated from a sample of their MEMORY USAGE: a 95% interval. */
export const MemoryEstimate = z.object({
  bytes: z.number(),
  low: z.number(),
  high: z.number(),
  sampled: z.number(),
});

export const KeyActionCounts = z.object({
  /**
   * Keys SCAN walked, over every shard: SCAN MATCH returns only the matches, so this is the
   * share of each shard's table its cursor has passed × its DBSIZE (exact once it is done).
   */
  scanned: z.number(),
  /** DBSIZE over the shards when the run began: the bar's denominator. */
  total: z.number(),
  /** Keys that fit the glob and every filter. */
  matched: z.number(),
  /** Keys the action changed (deleted, expired, persisted, exported); 0 in a dry run. */
  acted: z.number(),
  /** Matched keys left alone: gone, or changed since they were matched so a filter no longer fits, or (expire NX) already with a TTL. */
  skipped: z.number(),
  errors: z.number(),
  /**
   * 0 when the counts are exact. Else matched and acted (and skipped) are lower bounds, short by
   * at most this many keys: a part of the run that died (kill -9, a crash, the server going
   * away) while a page's actions were out, which it may have done without living to count them.
   * Absent: 0.
   */
  short: z.number().int().min(0).optional(),
  seconds: z.number(),
  shards: z.array(ShardCounts),
});
export type KeyActionCounts = z.output<typeof KeyActionCounts>;

export const KeyActionReport = KeyActionCounts.extend({
  runId: z.string(),
  op: KeyActionOp,
  dryRun: z.boolean(),
  /** Up to 20 matched names (a dry run's preview). */
  samples: z.array(KeyRef),
  /** Dry run: the memory the matched keys hold (what a delete would free); null when nothing matched. */
  memory: MemoryEstimate.nullable(),
  /** The first few error texts (untrusted: shown as text). */
  errorSamples: z.array(z.string()),
  /** Export: the file written. */
  file: z.string().nullable(),
  /** The idle filter could not be applied (an LFU policy): why. */
  notes: z.array(z.string()),
});
export type KeyActionReport = z.output<typeof KeyActionReport>;

export const KeyActionEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('progress'),
    counts: KeyActionCounts,
    /** Keys per second scanned, and the seconds left at that rate (null until known). */
    rate: z.number(),
    etaSeconds: z.number().nullable(),
    /** Why the run waits now, if it does: the latency budget, or a replica's lag. */
    paused: z.object({ reason: z.enum(['latency', 'replica-lag']), detail: z.string() }).nullable(),
  }),
  z.object({ kind: z.literal('done'), report: KeyActionReport }),
  z.object({ kind: z.literal('cancelled'), report: KeyActionReport }),
  z.object({ kind: z.literal('failed'), error: z.object({ code: z.string(), message: z.string() }), report: KeyActionReport.optional() }),
]);
export type KeyActionEvent = z.output<typeof KeyActionEvent>;

/** A run cut before its end (crash, cancel, lost connection), resumable by its id. */
export const ResumableRun = z.object({
  runId: z.string(),
  profileId: z.string(),
  db: z.number(),
  op: KeyActionOp,
  /** The glob, escaped for reading. */
  match: z.string(),
  startedAt: z.number(),
  counts: KeyActionCounts,
});

// ---------------------------------------------------------------- the entries

export const keyActions = {
  'keys.actions.start': call({
    input: z
      .object({
        profileId: ProfileId,
        db: Db.optional(),
        selection: KeySelection,
        action: KeyAction,
        pace: Pace.default({ maxLatencyMs: 2, maxReplicaLagBytes: 10 * 1024 * 1024 }),
        dryRun: z.boolean(),
        /** A selection of the whole DB (`*` and no filter) acts only when its DB number is typed back. */
        confirmDb: Db.optional(),
        /** Continue a cut run (its selection and action are the run's own). */
        resume: z
          .string()
          .regex(/^[A-Za-z0-9_-]{4,64}$/, 'resume must be a run id')
          .optional(),
      })
      .strict(),
    output: KeyActionJobId,
    role: 'ops',
    summary: 'Start a bulk key action (delete, expire, persist) over every key matching a glob and filters, or its dry run',
  }),
  'keys.actions.progress': stream({
    input: KeyActionJobId,
    event: KeyActionEvent,
    role: 'ops',
    summary: 'Progress and report of a bulk key action, replayed to a late subscriber',
  }),
  'keys.actions.cancel': call({
    input: KeyActionJobId,
    output: z.object({ cancelled: z.boolean() }),
    role: 'ops',
    summary: 'Stop a bulk key action; its report says exactly what was done, and it can be resumed',
  }),
  'keys.actions.resumable': call({
    input: z.object({ profileId: ProfileId }).strict(),
    output: z.object({ runs: z.array(ResumableRun) }),
    role: 'ops',
    summary: 'Bulk key action runs of a profile that were cut before their end and can be resumed',
  }),
} as const;
