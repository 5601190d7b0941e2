import * as z from 'zod';
import { call, stream } from '../define';
import { Db, jobIdOf, ProfileId } from './common';

/** Longest MATCH pattern accepted: a long glob makes every SCAN step costly on the server. */
export const MAX_MATCH_LENGTH = 256;

export const SampleMethod = z.enum(['sample', 'census']);
export type SampleMethod = z.output<typeof SampleMethod>;

/** The Redis types we report; anything else (a module type) is `other`. */
export const KeyType = z.enum(['string', 'hash', 'list', 'set', 'zset', 'stream', 'other']);
export type KeyType = z.output<typeof KeyType>;

export const SamplingOptions = z
  .object({
    profileId: ProfileId,
    /** The profile's own DB when absent. */
    db: Db.optional(),
    method: SampleMethod.default('sample'),
    /** sample: how many RANDOMKEY draws. */
    samples: z
      .number({ error: 'samples must be a number' })
      .int('samples must be a whole number')
      .min(1, 'samples must be at least 1')
      .max(1_000_000, 'samples must be 1,000,000 or less')
      .default(10_000),
    /** census: SCAN MATCH pattern. */
    match: z.string().min(1, 'match must not be empty').max(MAX_MATCH_LENGTH, `match must be at most ${MAX_MATCH_LENGTH} characters`).optional(),
    /** census: SCAN COUNT. */
    scanCount: z
      .number({ error: 'scanCount must be a number' })
      .int('scanCount must be a whole number')
      .min(10, 'scanCount must be at least 10')
      .max(100_000, 'scanCount must be 100,000 or less')
      .default(1000),
    /** Pause between batches, to be gentle on a busy production server. */
    pauseMs: z
      .number({ error: 'pauseMs must be a number' })
      .int('pauseMs must be a whole number')
      .min(0, 'pauseMs must be 0 or more')
      .max(10_000, 'pauseMs must be 10,000 or less')
      .default(0),
    /** MEMORY USAGE … SAMPLES n for aggregates; 0 is the exact (slow on big keys) form. */
    memorySamples: z
      .number({ error: 'memorySamples must be a number' })
      .int('memorySamples must be a whole number')
      .min(0, 'memorySamples must be 0 (exact) or more')
      .max(10_000, 'memorySamples must be 10,000 or less')
      .default(5),
  })
  .strict();
export type SamplingOptions = z.output<typeof SamplingOptions>;

/**
 * A key as shown to people: UTF-8 text with bytes that are not valid UTF-8, control
 * characters, `\` and `"` escaped redis-cli style (`\xff`, `\r`, `\n`, `\\`, `\"`),
 * cut to 1,024 characters. Always rendered as text, never as HTML.
 */
export const KeyName = z.object({
  text: z.string(),
  /** Length of the real key in bytes. */
  bytes: z.number(),
  /** The text was cut. */
  truncated: z.boolean(),
});
export type KeyName = z.output<typeof KeyName>;

/** A proportion with its 95% confidence interval (Wilson); for a census lo == hi == percent. */
export const Share = z.object({
  count: z.number(),
  percent: z.number(),
  ciLow: z.number(),
  ciHigh: z.number(),
});

/**
 * The 95% interval of a sampled memory figure (a census's is exact: low == high),
 * or why a sample cannot give one (e.g. one big key drawn and scaled up).
 */
export const MemoryInterval = z.union([
  z.object({
    low: z.number(),
    high: z.number(),
    /** Said beside the interval, e.g. that none of the kind was drawn. */
    note: z.string().optional(),
  }),
  z.object({ notEstimable: z.string() }),
]);
export type MemoryInterval = z.output<typeof MemoryInterval>;

export const TypeRow = Share.extend({
  type: KeyType,
  /** Sum of MEMORY USAGE over the keys examined. */
  memory: z.number(),
  /** sample: count and memory scaled to DBSIZE; census: the same as count and memory. */
  estimatedCount: z.number(),
  estimatedMemory: z.number(),
  /** The interval of estimatedMemory. */
  memoryInterval: MemoryInterval,
});

export const EncodingRow = Share.extend({ type: KeyType, encoding: z.string() });

/** Power-of-two buckets: `le` is the upper bound (1, 2, 4, 8, …), counts of values in (le/2, le]; le 0 holds zeros. */
export const Histogram = z.object({
  type: KeyType,
  buckets: z.array(z.object({ le: z.number(), count: z.number() })),
});

/**
 * `none`: no key TTL and nothing in it expires; `fields`: no key TTL, but hash fields
 * that expire (hash-field expiry, Redis 7.4+ / Valkey 9; see docs/sampling.md for how it is found).
 */
export const TtlBucket = z.enum(['none', 'fields', 'lt1m', 'lt1h', 'lt1d', 'longer']);
export const TtlRow = Share.extend({ bucket: TtlBucket });

export const TopKey = z.object({
  key: KeyName,
  type: KeyType,
  encoding: z.string(),
  /** MEMORY USAGE in bytes, as measured with the run's memorySamples. */
  memory: z.number(),
  /** Elements (STRLEN for strings). */
  length: z.number(),
  /** Seconds; -1 none. */
  ttl: z.number(),
});

/** One node of the prefix tree (keys split on `:`), flattened; a parent precedes its children. */
export const Namespace = z.object({
  /** e.g. `user:` or `user:session:`; the escaped text of the prefix. */
  prefix: z.string(),
  /** The parent's prefix; '' for top-level nodes. */
  parent: z.string(),
  depth: z.number(),
  /** Keys examined under the prefix: a census's keys; a sample's draws (a key drawn twice counts twice). */
  count: z.number(),
  /** Memory of what was examined under it (not scaled). */
  memory: z.number(),
  /** Of the keys examined (a sample: of the draws). */
  percent: z.number(),
  /**
   * Keys under the prefix in the DB: a census's count; a sample's share of draws × DBSIZE,
   * with the Wilson 95% interval of that share (keysLow..keysHigh). Never the draws.
   */
  keys: z.number(),
  keysLow: z.number(),
  keysHigh: z.number(),
});

/** One cluster master's part of a run: what it holds and what was examined there. */
export const MasterShare = z.object({
  /** "host:port" as the cluster announces it. */
  address: z.string(),
  /** The master's own DBSIZE when the run started (a cluster node counts only its slots' keys). */
  dbsize: z.number(),
  /** Keys probed there (census: every key it holds; sample: draws in proportion to its DBSIZE). */
  keysExamined: z.number(),
  keysMissing: z.number(),
  memory: z.number(),
  /** sample: memory scaled to the master's DBSIZE; census: memory. */
  estimatedMemory: z.number(),
  /** The interval of estimatedMemory. */
  memoryInterval: MemoryInterval,
});
export type MasterShare = z.output<typeof MasterShare>;

export const SamplingReport = z.object({
  method: SampleMethod,
  db: z.number(),
  dbsize: z.number(),
  /** Keys probed (a sample counts repeats: RANDOMKEY draws with replacement). */
  keysExamined: z.number(),
  /** Keys that vanished between being found and being probed (expired, deleted). */
  keysMissing: z.number(),
  seconds: z.number(),
  memoryTotal: z.number(),
  /** sample: memoryTotal scaled to DBSIZE; census: memoryTotal. */
  estimatedMemoryTotal: z.number(),
  /** The interval of estimatedMemoryTotal. */
  memoryTotalInterval: MemoryInterval,
  memorySamples: z.number(),
  match: z.string().optional(),
  types: z.array(TypeRow),
  encodings: z.array(EncodingRow),
  sizeHistograms: z.array(Histogram),
  lengthHistograms: z.array(Histogram),
  ttl: z.array(TtlRow),
  topByMemory: z.array(TopKey),
  /**
   * Lengths in elements (hashes, lists, sets, zsets, streams): a string's length is
   * bytes, another unit, so strings rank apart in topStringsByLength.
   */
  topByLength: z.array(TopKey),
  /** Strings by STRLEN (bytes). */
  topStringsByLength: z.array(TopKey),
  namespaces: z.array(Namespace),
  /** Honest caveats, e.g. keys missing, a huge key whose length was bounded. */
  warnings: z.array(z.string()),
  /** Cluster profiles only: the run per master (replicas are not sampled: they hold copies). */
  masters: z.array(MasterShare).optional(),
  /** What the server's INFO says (summed over a cluster's masters), each only where reported. */
  server: z
    .object({
      /** INFO memory used_memory_dataset, when the DB sampled is the only one holding keys. */
      datasetBytes: z.number().optional(),
      /** INFO keyspace subexpiry of the DB: hashes whose fields expire (Redis 7.4+). */
      subexpiry: z.number().optional(),
      /** INFO stats expired_subkeys: hash fields expired since the server started (Redis 7.4+). */
      expiredSubkeys: z.number().optional(),
    })
    .optional(),
});
export type SamplingReport = z.output<typeof SamplingReport>;

export const SampleJobId = jobIdOf('sample');

export const SamplingEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('started'),
    method: SampleMethod,
    db: z.number(),
    dbsize: z.number(),
    /** samples for a sample; DBSIZE (an estimate: keys come and go) for a census. */
    target: z.number(),
  }),
  /** At most 10 a second. */
  z.object({
    kind: z.literal('progress'),
    examined: z.number(),
    target: z.number(),
    keysPerSec: z.number(),
    elapsedMs: z.number(),
  }),
  /** The report so far, about once a second, so charts fill in while the run goes. */
  z.object({ kind: z.literal('partial'), report: SamplingReport }),
  z.object({ kind: z.literal('done'), report: SamplingReport }),
  /** A cancelled run still reports what it examined. */
  z.object({ kind: z.literal('cancelled'), report: SamplingReport }),
  z.object({ kind: z.literal('failed'), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type SamplingEvent = z.output<typeof SamplingEvent>;

export const sampling = {
  'sampling.start': call({
    summary: 'Start a sample (RANDOMKEY) or a census (SCAN) of one DB; follow it with sampling.progress',
    role: 'analyst',
    input: SamplingOptions,
    output: SampleJobId,
  }),
  'sampling.cancel': call({
    summary: 'Stop a running sample or census; it reports what it examined',
    role: 'analyst',
    input: SampleJobId,
    output: z.object({ cancelled: z.boolean() }),
  }),
  'sampling.progress': stream({
    summary: 'Progress, partial reports and the final report of one run (replayed to late subscribers)',
    role: 'analyst',
    input: SampleJobId,
    event: SamplingEvent,
  }),
} as const;
