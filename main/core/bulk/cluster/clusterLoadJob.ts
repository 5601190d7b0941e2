import { AppError } from '../../../../app/errors';
import { parseHostPort } from '../../../../app/hostPort';
import type { LoadEvent, LoadReport } from '../../../../app/schemas/bulk';
import { infoNumber } from '../../info/infoSnapshot';
import { plainSpecAt } from '../../pool/topology';
import type { MasterNode, ProfileSpec } from '../../pool/types';
import { resumeAutoSaves, suspendAutoSaves, type SaveSuspension } from '../job/autoSaves';
import { runBgsave, type BgsaveResult } from '../job/bgsave';
import { LoadCancelled, throwIfCancelled } from '../job/cancellation';
import { commandRefusal, errorText } from '../job/commandRefusal';
import { dbSize, flushDb } from '../job/dbOps';
import { InputGuard } from '../job/inputGuard';
import type { ControlLease } from '../job/loadJob';
import { classifyFailure, LoadFailed } from '../job/loadFailure';
import { mayEvict, preflight } from '../job/preflight';
import { ProgressReporter } from '../job/progressReporter';
import { readInfo, readServerFacts, type ServerFacts } from '../job/serverFacts';
import { acquireTargetLock, bulkConnectionName, type TargetLock } from '../job/targetLock';
import { verifyLoad } from '../job/verifyLoad';
import { DEFAULT_WAIT_TIMEOUT_MS, waitForReplicaOffsets } from '../job/waitReplicas';
import { DistinctKeyTracker } from '../../resp/keyTracker';
import { openRawConnection, type RawConnection } from '../../resp/rawConnection';
import type { PreparedLoad } from '../prepareLoad';
import { openSource } from '../sources/openSource';
import { ClusterPipe } from './clusterPipe';
import { requireDbZero } from '../../pool/topology';
import { sentences } from '../../text/sentences';
import { emptyReport } from '../job/emptyReport';
import { EvictionWatch, EVICTING_IN_FLIGHT, evictedKeys, evictionMessage } from '../job/evictionWatch';
import { peekInput, refuseReplacement } from '../job/replaceGuard';

export const SWAP_REFUSED =
  'SWAPDB is disabled in cluster mode (a cluster has only DB 0): use --mode flush or --mode merge';

export interface RunClusterLoadInput extends PreparedLoad {
  jobId: string;
  journalDir: string;
  /** The masters now, each with a plain spec (pool.masters): asked again after a MOVED. */
  masters(): Promise<MasterNode[]>;
  /** A dedicated control connection to one master. */
  control(address: string): Promise<ControlLease>;
  /** How long --wait-replicas waits. Default 30 s. */
  waitTimeoutMs?: number;
}


/** What the load holds on one master until cleanup. */
interface Master {
  address: string;
  spec: ProfileSpec;
  lease: ControlLease;
  facts: ServerFacts;
  lock?: TargetLock;
  saves?: SaveSuspension;
  raw?: RawConnection;
}

/** Refusals that need no server: swap, and a DB other than 0. */
export function refuseClusterPlan(mode: string, targetDb: number): void {
  if (mode === 'swap') throw new AppError('UNSUPPORTED', SWAP_REFUSED, 'mode');
  requireDbZero(targetDb, 'targetDb');
}

/**
 * A bulk load into a Redis Cluster: flush (FLUSHDB on every master first) or
 * merge, one raw pipe per master routed by slot (see ClusterPipe), automatic
 * saves off on every master for the load. Never throws: every ending is a
 * report, also emitted as the last event.
 */
export async function runClusterLoad(input: RunClusterLoadInput, emit: (e: LoadEvent) => void, signal: AbortSignal): Promise<LoadReport> {
  const started = Date.now();
  // A cluster has only DB 0.
  const report: LoadReport = emptyReport(input, 0);
  const send = (e: LoadEvent): void => {
    try {
      emit(e);
    } catch {
      // A failing listener must not take the load (and its cleanup) down with it.
    }
  };
  const phase = (p: Extract<LoadEvent, { kind: 'phase' }>['phase'], message: string): void => send({ kind: 'phase', phase: p, message, at: Date.now() });
  const warn = (message: string): void => {
    report.warnings.push(message);
    send({ kind: 'warning', message, at: Date.now() });
  };
  const masters = new Map<string, Master>();
  let pipe: ClusterPipe | undefined;
  let loadSeconds: number | undefined;
  let written = false;
  // INFO evicted_keys of every master, against its value when the master joined (facts.evictedKeys).
  const watch = new EvictionWatch(
    async () => {
      const grown = await Promise.all([...masters.values()].map(async (m) => (await evictedKeys(m.lease.redis)) - m.facts.evictedKeys));
      return grown.reduce((a, b) => a + b, 0);
    },
    // At the first eviction, drop every master's unread pipelined commands at once (see stopRawClients).
    () => void stopRawClients([...masters.values()]),
  );

  /** Control, facts and save config of one master; also for a master met mid-load (failover). */
  const join = async (address: string, spec: ProfileSpec): Promise<Master> => {
    const known = masters.get(address);
    if (known !== undefined) return known;
    const lease = await input.control(address);
    const facts = await readServerFacts(lease.redis).catch(async (err: unknown) => {
      await lease.release().catch(() => undefined);
      throw err;
    });
    const m: Master = { address, spec, lease, facts };
    masters.set(address, m);
    if (facts.configRefused === undefined) {
      m.saves = await suspendAutoSaves(lease.redis, { journalDir: input.journalDir, host: spec.host, port: spec.port, jobId: input.jobId });
      if (m.saves.warning !== undefined) warn(`${address}: ${m.saves.warning}`);
    }
    return m;
  };

  const execute = async (): Promise<void> => {
    phase('preflight', 'Reading the cluster’s masters');
    refuseClusterPlan(input.mode, input.targetDb);
    const initial = await input.masters();
    if (initial.length === 0) throw new AppError('REDIS', 'The cluster reports no master serving slots');
    const tracker = input.mode === 'flush' ? new DistinctKeyTracker() : undefined;
    const guard = new InputGuard(tracker);
    const source = await openSource(input, { file: input.fileLabel, format: input.format, tracker: guard, ...(input.mapping === undefined ? {} : { mapping: input.mapping }) });
    for (const m of initial) {
      throwIfCancelled(signal);
      const joined = await join(m.address, m.spec);
      const share = source.totalBytes === undefined ? {} : { inputBytes: Math.ceil(source.totalBytes / initial.length) };
      const plan = { mode: input.mode, targetDb: 0, bgsave: false, address: m.address, routedBySlot: true, allowEvictionRisk: input.allowEvictionRisk, ...share };
      for (const w of preflight(joined.facts, plan).warnings) warn(w);
      joined.lock = await acquireTargetLock(joined.lease.redis, { jobId: input.jobId, host: m.spec.host, port: m.spec.port, targetDb: 0 });
      if (joined.lock.warning !== undefined) warn(`${m.address}: ${joined.lock.warning}`);
    }
    // The guard stops the load before a command aimed at another DB is sent; the watch at the first eviction.
    const stop = AbortSignal.any([signal, guard.signal, watch.signal]);
    let batches = source.batches(stop);
    throwIfCancelled(signal);
    if (input.mode === 'flush') {
      // FLUSHDB comes first: an empty input is the one loss that can be told before it (see peekInput).
      const peeked = await peekInput(batches);
      batches = peeked.batches;
      if (peeked.empty) {
        const sizes = await Promise.all(initial.map((m) => dbSize((masters.get(m.address) as Master).lease.redis, 0)));
        const live = sizes.reduce((a, b) => a + b, 0);
        report.keyCounts = { new: 0, live };
        refuseReplacement({ newKeys: 0, liveKeys: live, newLabel: 'The input has no commands, so the new dataset', liveDb: 0, action: 'flush mode', allowEmpty: input.allowEmpty });
      }
      written = true;
      for (const m of initial) await flushDb((masters.get(m.address) as Master).lease.redis, 0, (masters.get(m.address) as Master).facts.version);
      warn(`Flush mode emptied all ${initial.length} masters before loading: readers saw a partial dataset during the load`);
    }

    phase('loading', `Loading ${input.fileLabel} into ${initial.length} masters, routed by hash slot`);
    const reporter = new ProgressReporter({ emit: send, bytesTotal: source.totalBytes, readMemory: () => usedMemory([...masters.values()]) });
    const template = (initial[0] as MasterNode).spec;
    const evicting = [...masters.values()].some((m) => mayEvict(m.facts));
    pipe = new ClusterPipe({
      file: input.fileLabel,
      maxErrors: input.maxErrors,
      ...(evicting ? { maxInFlightCommands: EVICTING_IN_FLIGHT } : {}),
      signal: stop,
      masters: input.masters,
      connect: async (address) => {
        const spec = initial.find((m) => m.address === address)?.spec ?? specAt(template, address);
        const m = await join(address, spec);
        const raw = await openRawConnection(spec, 0, { name: bulkConnectionName(input.jobId, 0) });
        m.raw = raw;
        return raw;
      },
      onProgress: (p) => reporter.update(p),
    });
    written = true;
    watch.start();
    try {
      const result = await pipe.run(batches, initial);
      reporter.finish(result);
      loadSeconds = result.seconds;
      take(report, result);
      for (const m of masters.values()) delete m.raw;
      report.redirects = result.redirects;
      if (result.redirects.moved + result.redirects.ask + result.redirects.tryagain > 0) {
        warn(`The cluster redirected ${result.redirects.moved} commands with MOVED, ${result.redirects.ask} with ASK and ${result.redirects.tryagain} with TRYAGAIN; each was resent once, in input order`);
      }
    } finally {
      reporter.finish();
      report.evictedKeys = await watch.stop();
    }

    phase('verifying', 'Checking replies and, for flush, the summed DBSIZE of the masters');
    let dbsize: number | undefined;
    if (input.mode === 'flush') {
      // After a failover the masters are not the ones the load began with: count on those serving now.
      const now = await input.masters();
      const sizes = await Promise.all(now.map(async (m) => dbSize((await join(m.address, m.spec)).lease.redis, 0)));
      dbsize = sizes.reduce((a, b) => a + b, 0);
    }
    const verdict = verifyLoad({
      mode: input.mode,
      result: report,
      maxErrors: input.maxErrors,
      expectedKeys: tracker?.trackable === true ? tracker.count : undefined,
      untrackedBy: tracker?.untrackedBy,
      dbsize,
      dbLabel: 'The cluster (summed DBSIZE of its masters)',
      expiredDuring: 0,
      evictedDuring: report.evictedKeys ?? 0,
    });
    report.verify = verdict.verify;
    for (const w of verdict.warnings) warn(w);
    if (!verdict.ok) throw new LoadFailed('REDIS', verdict.problem ?? 'Verification failed');
    if (input.bgsave) await snapshotAll();
    if (input.waitReplicas !== undefined && input.waitReplicas > 0) await replicasOfAll(input.waitReplicas);
  };

  /** --wait-replicas N: N replicas of every master serving now reach its offset as of the end of the load. */
  const replicasOfAll = async (count: number): Promise<void> => {
    const timeoutMs = input.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    const now = await input.masters();
    phase('replicas', `Waiting for ${count} replica${count === 1 ? '' : 's'} of each of ${now.length} masters (up to ${timeoutMs / 1000} s)`);
    const waits = await Promise.all(now.map(async (m) => ({ m, w: await waitForReplicaOffsets((await join(m.address, m.spec)).lease.redis, count, timeoutMs, signal) })));
    report.replicas = waits.flatMap(({ w }) => w.replicas);
    for (const { m, w } of waits) if (w.warning !== undefined) warn(`${m.address}: ${w.warning}`);
    if (signal.aborted) warn('Cancelled after the load: the data is in; stopped waiting for replicas');
  };

  /** --bgsave: every master serving now writes a snapshot, all at once (each forks its own child). */
  const snapshotAll = async (): Promise<void> => {
    const now = await input.masters();
    phase('bgsave', `BGSAVE on ${now.length} masters: writing snapshots with the new data`);
    let results: (BgsaveResult | undefined)[];
    try {
      results = await Promise.all(
        now.map(async (m) => {
          const redis = (await join(m.address, m.spec)).lease.redis;
          try {
            return await runBgsave(redis, signal);
          } catch (err) {
            const refused = err instanceof LoadCancelled ? undefined : commandRefusal(err);
            if (refused === undefined) throw err;
            warn(`${m.address}: BGSAVE is not available (${refused}): no snapshot was made there`);
            return undefined;
          }
        }),
      );
    } catch (err) {
      if (!(err instanceof LoadCancelled)) throw err;
      warn('Cancelled after the load: the data is in; stopped waiting for BGSAVE (it runs on)');
      return;
    }
    const done = results.filter((r): r is BgsaveResult => r !== undefined);
    results.forEach((r, i) => {
      if (r !== undefined && r.status !== 'ok') warn(`${now[i]?.address ?? '?'}: BGSAVE ended with status "${r.status}": its snapshot on disk is not up to date; see its log`);
    });
    if (done.length === 0) return;
    // The cluster's snapshot is as late as its slowest master, and only as good as its worst.
    report.bgsave = { seconds: Math.max(...done.map((r) => r.seconds)), status: done.find((r) => r.status !== 'ok')?.status ?? 'ok' };
  };

  let failed = false;
  try {
    await execute();
  } catch (err) {
    failed = true;
    let f = classifyFailure(err, signal, { host: 'cluster', port: 0 });
    const first = [...masters.values()][0];
    if (watch.evicted > 0 && !signal.aborted && first !== undefined) {
      f = { ...f, outcome: 'failed', code: 'REDIS', message: evictionMessage(watch.evicted, first.facts, ' on the cluster\'s masters') };
    }
    if (f.result !== undefined) take(report, f.result);
    report.outcome = f.outcome;
    const acknowledged = Math.max(0, report.replies - report.errors);
    const state = written
      ? `The cluster is partially loaded: ${acknowledged} of ${report.commands} commands sent were acknowledged${f.outcomeUnknown ? '; the outcome of the commands in flight is unknown' : ''}`
      : 'The cluster was not touched';
    report.error = { code: f.code, message: sentences(f.message, state), ...(f.field === undefined ? {} : { field: f.field }) };
  }
  phase('cleanup', failed ? 'Cleaning up after the failure' : 'Restoring settings, releasing connections');
  if (pipe !== undefined) report.nodes = pipe.nodes();
  await cleanup([...masters.values()], report, warn);
  report.seconds = (Date.now() - started) / 1000;
  const loading = loadSeconds ?? report.seconds;
  report.opsPerSec = loading > 0 ? Math.round(report.replies / loading) : 0;
  phase(
    report.outcome === 'ok' ? 'done' : report.outcome,
    report.error?.message ?? `The cluster loaded: ${report.commands} commands over ${report.nodes?.length ?? 0} masters, ${report.errors} errors, ${report.seconds.toFixed(1)} s`,
  );
  send({ kind: 'report', report });
  return report;
}

/** CLIENT KILL ID of each master's data connection: the server drops what it has not yet run of ours. */
async function stopRawClients(masters: Master[]): Promise<void> {
  await Promise.all(
    masters.map(async (m) => {
      const id = m.raw?.clientId;
      if (id !== undefined) await m.lease.redis.client('KILL', 'ID', String(id)).catch(() => undefined);
    }),
  );
}

/** Every master: in-flight commands of ours killed, saves back on, claim released, connection closed. */
async function cleanup(masters: Master[], report: LoadReport, warn: (m: string) => void): Promise<void> {
  const originals: string[] = [];
  let restoredAll = true;
  await Promise.all(
    masters.map(async (m) => {
      const redis = m.lease.redis;
      if (m.raw !== undefined) {
        m.raw.destroy();
        // CLIENT KILL ID drops whatever of ours the server still has unread (see loadJob's stopRawClient).
        await stopRawClients([m]);
      }
      if (m.saves !== undefined) {
        try {
          const r = await resumeAutoSaves(m.saves, [() => Promise.resolve(redis)]);
          if (r !== undefined) {
            originals.push(r.original);
            if (!r.restored) {
              restoredAll = false;
              warn(`${m.address}: automatic saves: ${r.note ?? 'not restored'}`);
            }
          }
        } catch (err) {
          restoredAll = false;
          warn(`${m.address}: automatic saves may still be off (${errorText(err)}); the journal restores them at the next start`);
        }
      }
      m.lock?.release();
      await m.lease.release().catch(() => undefined);
    }),
  );
  if (originals.length > 0) report.saveConfig = { original: [...new Set(originals)].join(' | '), restored: restoredAll };
}

function take(report: LoadReport, r: { records: number; commands: number; replies: number; errors: number; firstErrors?: LoadReport['firstErrors'] }): void {
  report.records = r.records;
  report.commands = r.commands;
  report.replies = r.replies;
  report.errors = r.errors;
  if (r.firstErrors !== undefined) report.firstErrors = r.firstErrors.slice(0, 100);
}

/** used_memory summed over the masters, for the progress events. */
async function usedMemory(masters: Master[]): Promise<number> {
  const used = await Promise.all(masters.map(async (m) => infoNumber((await readInfo(m.lease.redis, 'memory'))['memory']?.['used_memory'])));
  return used.reduce((a, b) => a + b, 0);
}

/** A master a MOVED named that CLUSTER NODES did not list yet: the profile's credentials at that address. */
function specAt(template: ProfileSpec, address: string): ProfileSpec {
  const node = parseHostPort(address, 6379);
  if ('error' in node) throw new AppError('REDIS', `The cluster redirected to "${address}", which is not host:port`);
  return plainSpecAt(template, node);
}
