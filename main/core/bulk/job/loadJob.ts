import type { LoadEvent, LoadReport } from '../../../../app/schemas/bulk';
import { bgsaveAfterSwitch, replicasAfterSwitch } from './afterSwitch';
import { suspendAutoSaves, type SaveSuspension } from './autoSaves';
import { throwIfCancelled } from './cancellation';
import { ControlLink } from './controlLink';
import { dbSize, flushDb } from './dbOps';
import { emptyReport } from './emptyReport';
import { cleanStagingLeftovers } from './leftovers';
import { describeCleaned } from './staleStaging';
import { EvictionWatch, evictedKeys } from './evictionWatch';
import { flushFirst } from './flushFirst';
import type { InputGuard } from './inputGuard';
import { countedWhenRead, openLoadInput } from './loadInput';
import { classifyFailure, nameOwnStop, type Failure } from './loadFailure';
import { LoadLog, partiallyLoaded } from './loadLog';
import { runLoadSkeleton } from './loadSkeleton';
import { preflight } from './preflight';
import { refuseModeWithout } from './modeCommands';
import { noteRefusedAtStart, unprotectedBy } from './unprotected';
import { restoreSaves } from './restoreSaves';
import { readKeyCounters, readServerFacts, type ServerFacts } from './serverFacts';
import type { RunLoadInput } from './runLoadInput';
import { ServerPipe } from './serverPipe';
import { chooseStagingDb } from './stagingDb';
import { SwapStaging } from './swapStaging';
import { acquireTargetLock, busyDbs, otherLoads, type TargetLock } from './targetLock';
import { testPause } from '../../jobs/testPause';
import { verifyStep } from './verifyStep';
import { countText } from '../../text/countText';

/**
 * One bulk load into one server, end to end: preflight, staging, the fast
 * pipe, verification, the switch, persistence and replicas, and a cleanup
 * that always runs (runLoadSkeleton). Never throws: every ending is a report
 * (also emitted as the last event).
 */
export function runLoad(input: RunLoadInput, emit: (e: LoadEvent) => void, signal: AbortSignal): Promise<LoadReport> {
  const { targetDb } = input;
  const address = `${input.spec.host}:${input.spec.port}`;
  const log = new LoadLog(emptyReport(input, targetDb), emit);
  const link = new ControlLink(input.control);
  const pipe = new ServerPipe(input, log, link);
  let facts: ServerFacts | undefined;
  let lock: TargetLock | undefined;
  let saves: SaveSuspension | undefined;
  let staging: SwapStaging | undefined;
  let guard: InputGuard | undefined;
  let watch: EvictionWatch | undefined;
  /** From here on the new data is live: a cancel can no longer undo it. */
  let live = false;
  /** Data was written to the target directly (flush, merge). */
  let targetWritten = false;

  const execute = async (): Promise<void> => {
    log.phase('preflight', `Checking ${address}`);
    throwIfCancelled(signal);
    const redis = await link.open();
    const server = await readServerFacts(redis);
    facts = server;
    const { source, tracker, guard: inputGuard } = await openLoadInput(input, true);
    guard = inputGuard;
    const pre = preflight(server, {
      mode: input.mode,
      targetDb,
      ...(input.stagingDb === undefined ? {} : { stagingDb: input.stagingDb }),
      ...(source.totalBytes === undefined ? {} : { inputBytes: source.totalBytes }),
      bgsave: input.bgsave,
      address,
      allowEvictionRisk: input.allowEvictionRisk,
    });
    for (const w of pre.warnings) log.warn(w);
    await refuseModeWithout(redis, input.mode, targetDb, address);
    await noteRefusedAtStart(redis, server, log);

    // A crashed swap load's staging DB is flushed first, and reused below: leftovers never pile up.
    const stale = await cleanStagingLeftovers(redis, { host: input.spec.host, port: input.spec.port }, input.journalDir).catch((err: unknown) => {
      // An ACL refusing a command of the look (NOPERM) must not stop the load: it is said, and the load goes on.
      const refused = unprotectedBy(log, err, ['CLIENT', 'LIST'], 'staging DBs left by earlier loads were not looked for');
      if (refused === undefined) throw err;
      log.warn(`Could not look for staging DBs left by earlier loads (${refused})`);
      return { cleaned: [], left: [] };
    });
    if (stale.cleaned.length > 0) {
      log.report.staleCleaned = stale.cleaned;
      for (const c of stale.cleaned) log.warn(describeCleaned(c, address));
    }
    if (input.mode === 'swap') {
      const others = await otherLoads(redis, { host: input.spec.host, port: input.spec.port, jobId: input.jobId });
      const db = chooseStagingDb(server, {
        targetDb,
        ...(input.stagingDb === undefined ? {} : { requested: input.stagingDb }),
        busy: busyDbs(others.loads),
        address,
        cleaned: stale.cleaned.map((c) => c.db),
      });
      staging = new SwapStaging(db, server, {
        input,
        log,
        link,
        signal,
        address,
        stamp: { jobId: input.jobId, host: input.spec.host, port: input.spec.port, journalDir: input.journalDir },
        written: () => {
          if (tracker === undefined || !tracker.trackable) return tracker?.untrackedBy === undefined ? {} : { untrackedBy: tracker.untrackedBy };
          return { keys: tracker.count };
        },
      });
      log.report.stagingDb = db;
    }
    lock = await acquireTargetLock(redis, {
      jobId: input.jobId,
      host: input.spec.host,
      port: input.spec.port,
      targetDb,
      ...(staging === undefined ? {} : { stagingDb: staging.db }),
    });
    if (lock.warning !== undefined) log.warn(lock.warning);
    if (lock.missing !== undefined) log.unprotected(lock.missing, 'another load into the same DBs from another process cannot be detected', false);
    if (staging !== undefined) await staging.prepare(redis, input.control);

    throwIfCancelled(signal);
    if (server.configRefused === undefined) {
      saves = await suspendAutoSaves(redis, { journalDir: input.journalDir, host: input.spec.host, port: input.spec.port, jobId: input.jobId });
      if (saves.warning !== undefined) log.warn(saves.warning);
    }

    // Without INFO the counters are unknown: no eviction watch, no count reported (never a 0 not measured).
    const before = server.infoRefused === undefined ? await readKeyCounters(redis) : undefined;
    const evictions = new EvictionWatch(
      async () => (before === undefined ? 0 : (await evictedKeys(redis)) - before.evicted),
      () => void pipe.stop(),
    );
    watch = evictions;
    // The guard stops the load like a cancel, before a command aimed at another DB is sent; the watch at the first eviction.
    const stop = AbortSignal.any([signal, inputGuard.signal, evictions.signal]);
    let stream = countedWhenRead(source.batches(stop), tracker);
    throwIfCancelled(signal);
    if (input.mode === 'flush') {
      stream = await flushFirst(
        stream,
        {
          liveKeys: () => dbSize(redis, targetDb),
          writing: () => (targetWritten = true),
          flush: () => flushDb(redis, targetDb, server.version),
          newLabel: 'The input has no commands, so the new DB',
          liveDb: targetDb,
          allowEmpty: input.allowEmpty,
          emptied: `Flush mode emptied DB ${targetDb} before loading: readers saw a partial dataset during the load`,
        },
        log,
      );
    }

    const loadedDb = staging?.db ?? targetDb;
    const into = {
      db: loadedDb,
      staged: staging !== undefined,
      bytesTotal: source.totalBytes,
      writing: () => {
        if (staging === undefined) targetWritten = true;
        else staging.dirty = true;
      },
    };
    if (before !== undefined) evictions.start();
    const result = await pipe.run(redis, server, into, stream, stop).finally(async () => {
      const evicted = await evictions.stop();
      if (before !== undefined) log.report.evictedKeys = evicted;
    });
    // flush and merge wrote straight into the target: once loaded, there is nothing a cancel could undo.
    if (staging === undefined) live = true;
    testPause('verifying');
    log.phase('verifying', 'Checking replies and key counts');
    const after = before === undefined ? undefined : await readKeyCounters(redis);
    const verdict = verifyStep(log, input, tracker, {
      result,
      dbsize: input.mode === 'merge' ? undefined : staging !== undefined ? await staging.dataKeys(redis) : await dbSize(redis, loadedDb),
      dbLabel: staging === undefined ? `DB ${loadedDb}` : `Staging DB ${loadedDb}`,
      // Unknown without INFO: 0 only leaves out the explanations of missing keys they would give.
      expiredDuring: after === undefined || before === undefined ? 0 : Math.max(0, after.expired - before.expired),
      evictedDuring: after === undefined || before === undefined ? 0 : Math.max(0, after.evicted - before.evicted),
    });

    if (staging !== undefined) await staging.beforeSwitch(redis, verdict.verify.dbsize);
    throwIfCancelled(signal); // the last point where a cancel leaves everything as it was
    if (staging !== undefined) await staging.swap(redis);
    live = true;
    const switched = { redis, log, signal, address };
    if (input.bgsave) await bgsaveAfterSwitch(switched);
    if (input.waitReplicas !== undefined && input.waitReplicas > 0) {
      await replicasAfterSwitch(switched, {
        count: input.waitReplicas,
        jobId: input.jobId,
        timeoutMs: input.waitTimeoutMs,
        leftBlocking: () => link.blocked(),
      });
    }
  };

  /** Never throws: discard and stop catch their own errors. */
  const recordFailure = async (f: Failure): Promise<void> => {
    const counts = f.result ?? pipe.counts;
    if (counts !== undefined) log.take(counts);
    if (f.result !== undefined) log.loadSeconds = f.result.seconds;
    await pipe.stop();
    if (live && f.outcome === 'cancelled') {
      // Nothing to undo: the switch happened. Report what is true, which is success.
      log.warn('Cancelled after the new data went live; the load itself is complete');
      return;
    }
    const state =
      staging !== undefined ? await staging.discard() : targetWritten ? partiallyLoaded(`DB ${targetDb}`, log.report, f) : `DB ${targetDb} was not touched`;
    log.fail(f, state);
  };

  return runLoadSkeleton(log, {
    execute,
    failure: (err) =>
      nameOwnStop(classifyFailure(err, signal, { host: input.spec.host, port: input.spec.port }), signal, {
        evicted: watch?.evicted ?? 0,
        facts,
        where: '',
        forbidden: guard?.forbidden,
        db: staging?.db ?? targetDb,
      }),
    recordFailure,
    // Every step runs whatever the others did: saves back on, claim released, connections closed.
    cleanup: async () => {
      await staging?.release(link.cleanupConnections());
      if (saves !== undefined) await restoreSaves(saves, link, log, input.journalDir);
      lock?.release();
      await link.releaseAll();
    },
    doneMessage: (r) => {
      const where = r.swapped ? `DB ${r.targetDb} now holds the new data` : `DB ${r.targetDb} loaded`;
      return `${where}: ${countText(r.commands)} commands, ${countText(r.errors)} errors, ${r.seconds.toFixed(1)} s`;
    },
  });
}

export type { RunLoadInput } from './runLoadInput';
