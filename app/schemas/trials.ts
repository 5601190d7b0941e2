import * as z from 'zod';
import { call, stream } from '../define';
import { Db, jobIdOf, ProfileId } from './common';

export const TrialKind = z.enum(['pipeline', 'multiplex', 'load']);
export type TrialKind = z.output<typeof TrialKind>;

/** The ways a trial sends its commands; the first of each trial is its baseline ("plain"). */
export const VariantName = z.enum([
  // pipeline
  'plain',
  'pipelined',
  'multi',
  'pipelinedMulti',
  // multiplex
  'blocking',
  'multiplexed',
  'fireAndForget',
  // load
  'set',
  'get',
]);
export type VariantName = z.output<typeof VariantName>;

/** MULTI sizes the transaction sweep measures. */
export const SWEEP_SIZES = [1, 2, 5, 10, 20, 50, 100] as const;

/** Largest delay the latency proxy adds each way. */
export const MAX_LATENCY_MS = 1_000;

function count(name: string, min: number, max: number, fallback: number) {
  const n = (v: number) => v.toLocaleString('en-US');
  return z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${n(min)}`)
    .max(max, `${name} must be ${n(max)} or less`)
    .default(fallback);
}

/** What every trial takes: where it runs and whether it goes through the latency proxy. */
const TrialCommon = {
  profileId: ProfileId,
  /** The profile's own DB when absent; the multiplex trial uses this one and the next dbs-1. */
  db: Db.optional(),
  /**
   * Run through a loopback TCP proxy that delays every chunk this many ms each way
   * (0 measures the proxy alone). Absent: straight to the server.
   */
  latencyMs: z
    .number({ error: 'latencyMs must be a number' })
    .min(0, 'latencyMs must be 0 or more')
    .max(MAX_LATENCY_MS, `latencyMs must be ${MAX_LATENCY_MS} or less`)
    .optional(),
  /** Run even though the DB holds keys of its own (the trial only writes and removes its scratch keys). */
  confirmNonEmpty: z.boolean().default(false),
};

export const PipelineTrialOptions = z
  .object({
    ...TrialCommon,
    trial: z.literal('pipeline'),
    /** SETs per variant. */
    n: count('n', 1, 1_000_000, 100_000),
    /** Commands per pipelined batch (and per transaction of the pipelined MULTI/EXEC variant). */
    batch: count('batch', 1, 100_000, 1_000),
    /** Also time MULTI/EXEC of 1 to 100 commands, sent plain and pipelined. */
    sweep: z.boolean().default(true),
    /** SETs per point of the sweep. */
    sweepN: count('sweepN', 1, 100_000, 10_000),
  })
  .strict();

export const MultiplexTrialOptions = z
  .object({
    ...TrialCommon,
    trial: z.literal('multiplex'),
    /** INCRs in all. */
    n: count('n', 1, 1_000_000, 5_000),
    /** INCRs per batch; batches go to the DBs in turn. */
    batch: count('batch', 1, 10_000, 10),
    /** How many DBs, from `db` on. */
    dbs: count('dbs', 1, 16, 5),
  })
  .strict();

export const LoadTrialOptions = z
  .object({
    ...TrialCommon,
    trial: z.literal('load'),
    /** Connections, each with one request in flight (redis-benchmark -c). */
    clients: count('clients', 1, 1_000, 50),
    /** Requests per command (redis-benchmark -n). */
    n: count('n', 1, 10_000_000, 100_000),
    /** Bytes of each SET value (redis-benchmark -d). */
    dataSize: count('dataSize', 1, 1_048_576, 3),
    /** Keys drawn at random from this many (redis-benchmark -r). */
    keyspace: count('keyspace', 1, 100_000_000, 100_000),
  })
  .strict();

export const TrialOptions = z.discriminatedUnion('trial', [PipelineTrialOptions, MultiplexTrialOptions, LoadTrialOptions]);
export type TrialOptions = z.output<typeof TrialOptions>;
export type PipelineTrialOptions = z.output<typeof PipelineTrialOptions>;
export type MultiplexTrialOptions = z.output<typeof MultiplexTrialOptions>;
export type LoadTrialOptions = z.output<typeof LoadTrialOptions>;

/** Request latency of the load trial, in ms, from a log-linear histogram (within ~1.6%). */
export const Percentiles = z.object({
  p50Ms: z.number(),
  p95Ms: z.number(),
  p99Ms: z.number(),
  maxMs: z.number(),
});
export type Percentiles = z.output<typeof Percentiles>;

export const VariantResult = z.object({
  variant: VariantName,
  label: z.string(),
  /** Commands the variant counts (SETs, INCRs, requests; not MULTI, EXEC or SELECT). */
  ops: z.number(),
  seconds: z.number(),
  opsPerSec: z.number(),
  /** opsPerSec over the trial's first variant's (plain, blocking); absent for the load trial. */
  ratio: z.number().optional(),
  /** Scratch keys the variant left, counted as they were removed. */
  keys: z.number(),
  /** Load trial: per-request latency. */
  latency: Percentiles.optional(),
  /** Error replies (the load trial goes on through them; the others stop at the first). */
  errors: z.number(),
});
export type VariantResult = z.output<typeof VariantResult>;

const Figures = z.object({ ops: z.number(), seconds: z.number(), opsPerSec: z.number() });

/** One transaction size: MULTI, the SETs and EXEC each awaited (plain) or written at once (pipelined). */
export const SweepPoint = z.object({
  size: z.number(),
  plain: Figures,
  pipelined: Figures,
  /** pipelined over plain ops/s. */
  ratio: z.number(),
});
export type SweepPoint = z.output<typeof SweepPoint>;

export const TrialLatency = z.object({
  /** The delay asked for, each way. */
  requestedMs: z.number(),
  /** Median PING round trip straight to the server and through the proxy. */
  directRttMs: z.number(),
  proxiedRttMs: z.number(),
  /** proxied - direct: what the proxy really adds to a round trip (about 2 × requestedMs). */
  addedRttMs: z.number(),
});
export type TrialLatency = z.output<typeof TrialLatency>;

/** The parameters a run used, so past runs can be told apart. */
export const TrialParams = z.object({
  n: z.number(),
  batch: z.number().optional(),
  sweepN: z.number().optional(),
  clients: z.number().optional(),
  dataSize: z.number().optional(),
  keyspace: z.number().optional(),
});
export type TrialParams = z.output<typeof TrialParams>;

export const TrialReport = z.object({
  trial: TrialKind,
  /** "host:port" the trial ran against. */
  address: z.string(),
  /** The DBs written to (several for multiplex). */
  dbs: z.array(z.number()),
  params: TrialParams,
  latency: TrialLatency.optional(),
  /** Every variant that finished, in the order they ran. */
  variants: z.array(VariantResult),
  sweep: z.array(SweepPoint),
  /** Wall time of the whole run, checks and cleanup included. */
  seconds: z.number(),
  warnings: z.array(z.string()),
});
export type TrialReport = z.output<typeof TrialReport>;

export const TrialJobId = jobIdOf('trial');

const TrialError = z.object({ code: z.string(), message: z.string(), field: z.string().optional() });

export const TrialEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('started'),
    trial: TrialKind,
    address: z.string(),
    dbs: z.array(z.number()),
    /** Variants in the order they run. */
    variants: z.array(VariantName),
    /** Commands the whole run counts, sweep included. */
    total: z.number(),
    latency: TrialLatency.optional(),
  }),
  /** At most 10 a second. */
  z.object({
    kind: z.literal('progress'),
    /** What runs now: a variant, or `sweep:<size>`. */
    step: z.string(),
    done: z.number(),
    total: z.number(),
    /** The running step's rate. */
    opsPerSec: z.number(),
    elapsedMs: z.number(),
  }),
  z.object({ kind: z.literal('variant'), result: VariantResult }),
  z.object({ kind: z.literal('sweep'), point: SweepPoint }),
  z.object({ kind: z.literal('done'), report: TrialReport }),
  /** A cancelled run reports the variants that finished; its scratch keys are removed all the same. */
  z.object({ kind: z.literal('cancelled'), report: TrialReport }),
  z.object({ kind: z.literal('failed'), error: TrialError }),
]);
export type TrialEvent = z.output<typeof TrialEvent>;

export const trials = {
  'trials.start': call({
    summary: 'Run a pipeline, multiplex or load trial against the server (writes scratch keys, always removed); follow it with trials.progress',
    role: 'ops',
    input: TrialOptions,
    output: TrialJobId,
  }),
  'trials.cancel': call({
    summary: 'Stop a running trial; its scratch keys are removed and the finished variants reported',
    role: 'ops',
    input: TrialJobId,
    output: z.object({ cancelled: z.boolean() }),
  }),
  'trials.progress': stream({
    summary: 'Progress, each finished variant and the report of one trial (replayed to late subscribers)',
    role: 'ops',
    input: TrialJobId,
    event: TrialEvent,
  }),
} as const;
