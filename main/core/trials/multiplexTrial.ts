import type { Redis } from 'ioredis';
import type { MultiplexTrialOptions, VariantName } from '../../../app/schemas/trials';
import { toAppErrorFor } from '../pool/redisErrors';
import { SCRATCH_TTL_MS } from './scratch';
import { checkpoint, timed, type TrialContext } from './trialContext';

export const MULTIPLEX_VARIANTS = ['blocking', 'multiplexed', 'fireAndForget'] as const satisfies readonly VariantName[];
export type MultiplexVariant = (typeof MULTIPLEX_VARIANTS)[number];

export interface IncrPlan {
  n: number;
  batch: number;
  /** The DBs, in the round-robin order. */
  dbs: readonly number[];
  prefix: string;
}

interface Batch {
  /** Index into plan.dbs. */
  slot: number;
  size: number;
}

/** n INCRs cut into batches of `batch`, dealt to the DBs in turn. */
function batchesOf(plan: IncrPlan): Batch[] {
  const out: Batch[] = [];
  for (let from = 0, k = 0; from < plan.n; from += plan.batch, k++) {
    out.push({ slot: k % plan.dbs.length, size: Math.min(plan.batch, plan.n - from) });
  }
  return out;
}

/** The j-th INCR of every batch hits counter j: each DB ends with counters summing to its share of n. */
export function counterKey(prefix: string, j: number): string {
  return `${prefix}counter:${j}`;
}

export interface IncrClients {
  /** The blocking variant's own connection (it SELECTs, so it cannot be a shared one). */
  blocking?: Redis;
  /** One multiplexed connection per DB, in plan.dbs order. */
  perDb?: readonly Redis[];
}

/**
 * The same INCRs three ways:
 * - blocking: one connection; SELECT when the DB changes, then each INCR awaited;
 * - multiplexed: each DB's batch pipelined on that DB's connection, a round of
 *   one batch per DB in flight at once, the next round after it;
 * - fireAndForget: every batch sent at once, all replies awaited at the end.
 */
export async function sendIncrs(
  clients: IncrClients,
  variant: MultiplexVariant,
  plan: IncrPlan,
  tick: (n: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const batches = batchesOf(plan);
  if (variant === 'blocking') {
    const redis = need(clients.blocking, 'blocking');
    let current: number | undefined;
    for (const b of batches) {
      checkpoint(signal);
      const db = plan.dbs[b.slot]!;
      if (db !== current) await call(redis, () => redis.select(db));
      current = db;
      for (let j = 0; j < b.size; j++) await call(redis, () => redis.incr(counterKey(plan.prefix, j)));
      tick(b.size);
    }
    return;
  }
  const perDb = need(clients.perDb, variant);
  const send = (b: Batch) => pipelineIncrs(perDb[b.slot]!, plan.prefix, b.size).then(() => tick(b.size));
  if (variant === 'fireAndForget') {
    await Promise.all(batches.map(send));
    return;
  }
  for (let i = 0; i < batches.length; i += plan.dbs.length) {
    checkpoint(signal);
    await Promise.all(batches.slice(i, i + plan.dbs.length).map(send));
  }
}

/**
 * The counters created at 0 with the last-resort TTL before the variant is timed: INCR keeps
 * a key's TTL, so a run killed mid-way leaves none without one, and the counts are as from nothing.
 */
async function seedCounters(perDb: readonly Redis[], plan: IncrPlan): Promise<void> {
  const counters = Math.min(plan.batch, plan.n);
  for (const redis of perDb) {
    const p = redis.pipeline();
    for (let j = 0; j < counters; j++) p.set(counterKey(plan.prefix, j), '0', 'PX', SCRATCH_TTL_MS);
    const replies = await call(redis, () => p.exec());
    const failed = replies?.find(([err]) => err !== null)?.[0];
    if (failed) throw toAppErrorFor(redis, failed);
  }
}

async function pipelineIncrs(redis: Redis, prefix: string, size: number): Promise<void> {
  const p = redis.pipeline();
  for (let j = 0; j < size; j++) p.incr(counterKey(prefix, j));
  const replies = await call(redis, () => p.exec());
  const failed = replies?.find(([err]) => err !== null)?.[0];
  if (failed) throw toAppErrorFor(redis, failed);
}

async function call<T>(redis: Redis, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw toAppErrorFor(redis, e);
  }
}

function need<T>(v: T | undefined, variant: string): T {
  if (v === undefined) throw new Error(`the ${variant} variant needs its connections`);
  return v;
}

export function multiplexDbs(o: Pick<MultiplexTrialOptions, 'dbs'> & { db: number }): number[] {
  return Array.from({ length: o.dbs }, (_, i) => o.db + i);
}

/** The blocking client, then the pool's shared connection per DB, pipelined and fire-and-forget. */
export async function multiplexTrial(ctx: TrialContext, o: Omit<MultiplexTrialOptions, 'profileId'> & { db: number }): Promise<void> {
  const dbs = multiplexDbs(o);
  const plan: IncrPlan = { n: o.n, batch: o.batch, dbs, prefix: ctx.prefix };
  const cleanAll = async () => {
    let keys = 0;
    for (const db of dbs) keys += await ctx.clean(db);
    return keys;
  };
  const own = await ctx.connector.dedicated(dbs[0]!);
  try {
    const perDb = await Promise.all(dbs.map((db) => ctx.connector.shared(db)));
    for (const variant of MULTIPLEX_VARIANTS) {
      await seedCounters(perDb, plan);
      const seconds = await timed(ctx, variant, (tick) => sendIncrs({ blocking: own.redis, perDb }, variant, plan, tick, ctx.signal));
      ctx.recorder.variant({ variant, ops: o.n, seconds, keys: await cleanAll(), errors: 0 });
    }
  } finally {
    await own.release();
  }
}
