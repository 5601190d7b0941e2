import type { SamplingEvent, SamplingOptions, SamplingReport } from '../../../app/schemas/sampling';
import { connectionFor, type RawTarget } from '../resp/rawTarget';
import type { MasterNode } from '../pool/types';
import { toAppError } from '../pool/redisErrors';
import { Aggregate, type ReportMeta } from './aggregate';
import { FieldExpiryCheck } from './fieldExpiry';
import { allocateSamples } from './allocate';
import { ScanSource } from './census';
import type { KeySource } from './keySource';
import { MasterTally } from './masterTally';
import type { KeyProber } from './keyProber';
import { Prober } from './probe';
import { ProbeQueue } from './probeQueue';
import { RandomKeySource } from './randomSample';
import { ScriptProber } from './scriptProber';
import type { FinalSamplingEvent } from './samplingJobs';
import { shardLoop } from './shardLoop';
import { openShards, type SamplingTarget, type Shard } from './shards';
import { SamplingThrottle } from './throttle';
import { DEFAULT_TUNING, type SamplingTuning } from './tuning';

export type { SamplingTarget };
export type SamplingSettings = Omit<SamplingOptions, 'profileId' | 'db'> & { db: number };

/**
 * One server (the profile's own, or a sentinel profile's current master), or every master of a
 * cluster (`masters`), whose report then merges them all and adds a per-master table.
 */
export type SamplingWhere = RawTarget | { masters: SamplingTarget[] };

export type SamplingRun = {
  options: SamplingSettings;
  tuning?: Partial<SamplingTuning>;
} & SamplingWhere;

/**
 * A cluster's masters as targets. Replicas are left out: they hold copies of
 * their master's keys, and a census must count each key once. DB 0: SELECT is
 * refused in cluster mode.
 */
export function mastersFor(masters: readonly MasterNode[], name: string): SamplingTarget[] {
  return masters.map((m) => ({ address: m.address, ...connectionFor(m.spec, 0, name) }));
}

/** How long a cancelled run waits for the probes in flight before dropping the connections. */
const CANCEL_GRACE_MS = 2_000;

interface Part {
  shard: Shard;
  tally: MasterTally;
  source: KeySource;
  prober: KeyProber;
}

/**
 * One sample (RANDOMKEY) or census (SCAN) of one DB, or of every master of a
 * cluster at once: `started`, progress at most ten times a second, a partial
 * report about once a second, then `done`, or `cancelled` with what was
 * examined, or `failed` with the AppError's code and message (one master
 * failing ends the run on all). Resolves with that last event (not emitted).
 * A sample of a DB no bigger than its draws runs as a census, and its report says so.
 */
export async function runSampling(run: SamplingRun, emit: (e: SamplingEvent) => void, signal: AbortSignal): Promise<FinalSamplingEvent> {
  const o = run.options;
  const tuning = { ...DEFAULT_TUNING, ...run.tuning };
  const perMaster = 'masters' in run;
  const targets = perMaster ? run.masters : [{ address: '', connect: run.connect, errorContext: run.errorContext }];
  const startedAt = performance.now();
  let shards: Shard[] = [];
  let report: (() => SamplingReport) | null = null;
  // Ends every shard's loop: the caller's cancel, or one shard failing.
  const stop = new AbortController();
  const onAbort = () => {
    stop.abort();
    setTimeout(() => shards.forEach((s) => s.pipe.destroy()), CANCEL_GRACE_MS).unref();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    shards = await openShards(targets, o.db, { scripts: tuning.scripts });
    const dbsize = shards.reduce((n, s) => n + s.dbsize, 0);
    // A sample of at least as many draws as the DB has keys costs as much as measuring
    // every key, and would still be an estimate: measure them all instead, and say so.
    const method = o.method === 'sample' && dbsize <= o.samples ? 'census' : o.method;
    const instead =
      method === o.method
        ? []
        : [`the DB holds ${dbsize} keys, no more than the ${o.samples} draws asked for: every key was measured (a census) instead of a sample`];
    const agg = new Aggregate();
    const quotas =
      shards.length === 1
        ? [o.samples]
        : allocateSamples(
            o.samples,
            shards.map((s) => s.dbsize),
          );
    const parts = shards.map((shard, i): Part => {
      const tally = new MasterTally(shard.target.address, shard.dbsize, agg);
      const source: KeySource =
        method === 'census'
          ? new ScanSource(shard.pipe, shard.dbsize, o.scanCount, o.match)
          : new RandomKeySource(shard.pipe, quotas[i] ?? 0, tuning.randomBatch);
      const fields = shard.fieldExpiry ? new FieldExpiryCheck(shard.pipe) : null;
      const plain = new Prober(shard.pipe, tally, o.memorySamples, shard.server.modules, fields);
      const prober = shard.script ? new ScriptProber(shard.pipe, tally, o.memorySamples, shard.server.modules, fields, plain) : plain;
      return { shard, tally, source, prober };
    });
    const where = (p: Part, w: string) => (perMaster ? `${p.shard.target.address}: ${w}` : w);
    const build = (): SamplingReport => {
      const r = agg.report({
        method,
        db: o.db,
        dbsize,
        seconds: (performance.now() - startedAt) / 1000,
        memorySamples: o.memorySamples,
        ...(o.match === undefined || method !== 'census' ? {} : { match: o.match }),
        server: serverOf(shards),
        warnings: [...instead, ...parts.flatMap((p) => [...p.source.warnings(), ...p.prober.warnings()].map((w) => where(p, w)))],
      });
      return perMaster ? { ...r, masters: parts.map((p) => p.tally.share(method, p.shard.server.dataset)) } : r;
    };
    report = build;
    const target = parts.reduce((n, p) => n + p.source.target, 0);
    emit({ kind: 'started', method, db: o.db, dbsize, target });
    const throttle = new SamplingThrottle(tuning, emit, () => agg.examined + agg.missing, target, build);
    const loops = parts.map((p) => {
      const scripts = o.pauseMs > 0 ? tuning.scriptMaxInFlightPaced : tuning.scriptMaxInFlight;
      const [size, inFlight] = p.shard.script ? [tuning.scriptGroupSize, scripts] : [tuning.groupSize, tuning.maxInFlight];
      const queue = new ProbeQueue(p.prober, size, inFlight, () => throttle.tick());
      return shardLoop(p.source, queue, o, stop.signal).catch((e: unknown) => {
        stop.abort();
        throw toAppError(e, p.shard.target.errorContext);
      });
    });
    const failed = (await Promise.allSettled(loops)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    throttle.finish();
    return signal.aborted ? { kind: 'cancelled', report: build() } : { kind: 'done', report: build() };
  } catch (e) {
    // A cancel that had to drop the connections fails the probes in flight: still a cancel.
    if (signal.aborted && report !== null) return { kind: 'cancelled', report: report() };
    const err = toAppError(e, targets[0]?.errorContext);
    return { kind: 'failed', error: { code: err.code, message: err.message } };
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (signal.aborted) shards.forEach((s) => s.pipe.destroy());
    else await Promise.all(shards.map((s) => s.pipe.close()));
  }
}

/** The servers' INFO figures summed over shards; the dataset only when every shard gave it. */
function serverOf(shards: readonly Shard[]): NonNullable<ReportMeta['server']> {
  const sum = (pick: (s: Shard) => number | undefined) => {
    const got = shards.map(pick);
    return got.every((n) => n === undefined) ? undefined : got.reduce<number>((a, n) => a + (n ?? 0), 0);
  };
  const out: NonNullable<ReportMeta['server']> = {};
  if (shards.every((s) => s.server.dataset !== undefined)) out.dataset = sum((s) => s.server.dataset);
  const subexpiry = sum((s) => s.server.subexpiry);
  if (subexpiry !== undefined) out.subexpiry = subexpiry;
  const expired = sum((s) => s.server.expiredSubkeys);
  if (expired !== undefined) out.expiredSubkeys = expired;
  return out;
}
