import { AppError } from '../../../../app/errors';
import type { LoadEvent, LoadReport } from '../../../../app/schemas/bulk';
import { requireDbZero } from '../../pool/topology';
import type { MasterNode, ProfileSpec } from '../../pool/types';
import { throwIfCancelled } from '../job/cancellation';
import { flushDb } from '../job/dbOps';
import { emptyReport } from '../job/emptyReport';
import { EvictionWatch, EVICTING_IN_FLIGHT } from '../job/evictionWatch';
import { flushFirst } from '../job/flushFirst';
import type { InputGuard } from '../job/inputGuard';
import { openLoadInput } from '../job/loadInput';
import { classifyFailure, nameOwnStop } from '../job/loadFailure';
import { LoadLog, partiallyLoaded } from '../job/loadLog';
import { runLoadSkeleton } from '../job/loadSkeleton';
import { mayEvict, preflight } from '../job/preflight';
import { ProgressReporter } from '../job/progressReporter';
import { acquireTargetLock, bulkConnectionName } from '../job/targetLock';
import { verifyStep } from '../job/verifyStep';
import { openRawConnection } from '../../resp/rawConnection';
import { ClusterMasters, specAt, type MastersInput } from './clusterMasters';
import { replicasOfAll, snapshotAll } from './clusterPersistence';
import { ClusterPipe } from './clusterPipe';
import type { PreparedLoad } from '../prepareLoad';
import { countText } from '../../text/countText';

export const SWAP_REFUSED = 'SWAPDB is disabled in cluster mode (a cluster has only DB 0): use --mode flush or --mode merge';

export interface RunClusterLoadInput extends PreparedLoad, MastersInput {
  /** The masters now, each with a plain spec (pool.masters): asked again after a MOVED. */
  masters(): Promise<MasterNode[]>;
  /** How long --wait-replicas waits. Default 30 s. */
  waitTimeoutMs?: number;
}

/** Refusals that need no server: swap, and a DB other than 0. */
export function refuseClusterPlan(mode: string, targetDb: number): void {
  if (mode === 'swap') throw new AppError('UNSUPPORTED', SWAP_REFUSED, 'mode');
  requireDbZero(targetDb, 'targetDb');
}

/** A profile's load refused before it starts when its topology cannot take the plan (a cluster: refuseClusterPlan). */
export function refuseForTopology(spec: ProfileSpec, mode: string, targetDb: number): void {
  if (spec.topology?.kind === 'cluster') refuseClusterPlan(mode, targetDb);
}

/**
 * A bulk load into a Redis Cluster: flush (FLUSHDB on every master first) or
 * merge, one raw pipe per master routed by slot (see ClusterPipe), automatic
 * saves off on every master for the load; the course and the report are
 * every load's (runLoadSkeleton). Never throws: every ending is a report,
 * also emitted as the last event.
 */
export function runClusterLoad(input: RunClusterLoadInput, emit: (e: LoadEvent) => void, signal: AbortSignal): Promise<LoadReport> {
  // A cluster has only DB 0.
  const log = new LoadLog(emptyReport(input, 0), emit);
  const masters = new ClusterMasters(input, log);
  let pipe: ClusterPipe | undefined;
  let guard: InputGuard | undefined;
  let written = false;
  // At the first eviction, drop every master's unread pipelined commands at once (see stopRawClients).
  const watch = new EvictionWatch(
    () => masters.evictedSinceJoin(),
    () => void masters.stopRawClients(),
  );

  const execute = async (): Promise<void> => {
    log.phase('preflight', 'Reading the cluster’s masters');
    refuseClusterPlan(input.mode, input.targetDb);
    const initial = await input.masters();
    if (initial.length === 0) throw new AppError('REDIS', 'The cluster reports no master serving slots');
    const { source, tracker, guard: inputGuard } = await openLoadInput(input);
    guard = inputGuard;
    for (const m of initial) {
      throwIfCancelled(signal);
      const joined = await masters.join(m.address, m.spec);
      const share = source.totalBytes === undefined ? {} : { inputBytes: Math.ceil(source.totalBytes / initial.length) };
      const plan = {
        mode: input.mode,
        targetDb: 0,
        bgsave: false,
        address: m.address,
        routedBySlot: true,
        allowEvictionRisk: input.allowEvictionRisk,
        ...share,
      };
      for (const w of preflight(joined.facts, plan).warnings) log.warn(w);
      joined.lock = await acquireTargetLock(joined.lease.redis, { jobId: input.jobId, host: m.spec.host, port: m.spec.port, targetDb: 0 });
      if (joined.lock.warning !== undefined) log.warn(`${m.address}: ${joined.lock.warning}`);
    }
    // The guard stops the load before a command aimed at another DB is sent; the watch at the first eviction.
    const stop = AbortSignal.any([signal, inputGuard.signal, watch.signal]);
    let batches = source.batches(stop);
    throwIfCancelled(signal);
    if (input.mode === 'flush') {
      batches = await flushFirst(
        batches,
        {
          liveKeys: () => masters.dbSize(initial),
          writing: () => (written = true),
          flush: async () => {
            for (const m of initial) {
              const joined = await masters.join(m.address, m.spec);
              await flushDb(joined.lease.redis, 0, joined.facts.version);
            }
          },
          newLabel: 'The input has no commands, so the new dataset',
          liveDb: 0,
          allowEmpty: input.allowEmpty,
          emptied: `Flush mode emptied all ${initial.length} masters before loading: readers saw a partial dataset during the load`,
        },
        log,
      );
    }

    log.phase('loading', `Loading ${input.fileLabel} into ${initial.length} masters, routed by hash slot`);
    const reporter = new ProgressReporter({ emit: (e) => log.emit(e), bytesTotal: source.totalBytes, readMemory: () => masters.usedMemory() });
    const template = (initial[0] as MasterNode).spec;
    const evicting = masters.all().some((m) => mayEvict(m.facts));
    const clusterPipe = new ClusterPipe({
      file: input.fileLabel,
      maxErrors: input.maxErrors,
      ...(evicting ? { maxInFlightCommands: EVICTING_IN_FLIGHT } : {}),
      signal: stop,
      masters: input.masters,
      connect: async (address) => {
        const spec = initial.find((m) => m.address === address)?.spec ?? specAt(template, address);
        const m = await masters.join(address, spec);
        const raw = await openRawConnection(spec, 0, { name: bulkConnectionName(input.jobId, 0) });
        m.raw = raw;
        return raw;
      },
      onProgress: (p) => reporter.update(p),
    });
    pipe = clusterPipe;
    written = true;
    watch.start();
    try {
      const result = await clusterPipe.run(batches, initial);
      reporter.finish(result);
      log.loadSeconds = result.seconds;
      log.take(result);
      for (const m of masters.all()) delete m.raw;
      log.report.redirects = result.redirects;
      if (result.redirects.moved + result.redirects.ask + result.redirects.tryagain > 0) {
        log.warn(
          `The cluster redirected ${result.redirects.moved} commands with MOVED, ${result.redirects.ask} with ASK and ${result.redirects.tryagain} with TRYAGAIN; each was resent once, in input order`,
        );
      }
    } finally {
      reporter.finish();
      log.report.evictedKeys = await watch.stop();
    }

    log.phase('verifying', 'Checking replies and, for flush, the summed DBSIZE of the masters');
    verifyStep(log, input, tracker, {
      result: log.report,
      // After a failover the masters are not the ones the load began with: count on those serving now.
      dbsize: input.mode === 'flush' ? await masters.dbSize(await input.masters()) : undefined,
      dbLabel: 'The cluster (summed DBSIZE of its masters)',
      expiredDuring: 0,
      evictedDuring: log.report.evictedKeys ?? 0,
    });
    const after = { nodes: () => input.masters(), masters, log, signal };
    if (input.bgsave) await snapshotAll(after);
    if (input.waitReplicas !== undefined && input.waitReplicas > 0) await replicasOfAll(after, input.waitReplicas, input.waitTimeoutMs);
  };

  return runLoadSkeleton(log, {
    execute,
    failure: (err) =>
      nameOwnStop(classifyFailure(err, signal, { host: 'cluster', port: 0 }), signal, {
        evicted: watch.evicted,
        facts: masters.all()[0]?.facts,
        where: " on the cluster's masters",
        forbidden: guard?.forbidden,
        db: 0,
      }),
    recordFailure: async (f) => {
      if (f.result !== undefined) log.take(f.result);
      log.fail(f, written ? partiallyLoaded('The cluster', log.report, f) : 'The cluster was not touched');
    },
    cleanup: async () => {
      if (pipe !== undefined) log.report.nodes = pipe.nodes();
      await masters.cleanup();
    },
    doneMessage: (r) =>
      `The cluster loaded: ${countText(r.commands)} commands over ${r.nodes?.length ?? 0} masters, ${countText(r.errors)} errors, ${r.seconds.toFixed(1)} s`,
  });
}
