import type { Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import type { LoadEvent, LoadReport } from '../../../../app/schemas/bulk';
import type { ProfileSpec } from '../../pool/types';
import type { PreparedLoad } from '../prepareLoad';
import { infoNumber } from '../../info/infoSnapshot';
import { DistinctKeyTracker } from '../../resp/keyTracker';
import { pipeLoad } from '../../resp/pipeWriter';
import { openRawConnection } from '../../resp/rawConnection';
import { openSource } from '../sources/openSource';
import type { SourceOptions } from '../types';
import type { CommandBatch, KeyTracker, PipeProgress, PipeResult } from '../../resp/types';
import { resumeAutoSaves, suspendAutoSaves, type SaveSuspension } from './autoSaves';
import { runBgsave } from './bgsave';
import { LoadCancelled, throwIfCancelled, untilCancelled } from './cancellation';
import { commandRefusal, errorText } from './commandRefusal';
import { dbSize, flushDb } from './dbOps';
import { classifyFailure, LoadFailed, type Failure } from './loadFailure';
import { InputGuard } from './inputGuard';
import { formatBytes, mayEvict, memoryProjection, preflight } from './preflight';
import { ProgressReporter } from './progressReporter';
import { readInfo, readServerFacts, type ServerFacts } from './serverFacts';
import { checkStagingEmpty, chooseStagingDb } from './stagingDb';
import { acquireTargetLock, bulkConnectionName, busyDbs, otherLoads, type TargetLock } from './targetLock';
import { verifyLoad } from './verifyLoad';
import { DEFAULT_WAIT_TIMEOUT_MS, waitForReplicas } from './waitReplicas';
import { sentences } from '../../text/sentences';
import { emptyReport } from './emptyReport';
import { EvictionWatch, EVICTING_IN_FLIGHT, evictedKeys, evictionMessage } from './evictionWatch';
import { checkLive, describeLive, snapshotLive, type LiveSnapshot } from './liveCheck';
import { peekInput, refuseReplacement } from './replaceGuard';

/** A dedicated ioredis connection from the pool, owned by the load until release(). */
export interface ControlLease {
  redis: Redis;
  release(): Promise<void>;
}

/** What prepareLoad settled, plus what only the caller knows: the job, the secret-bearing spec. */
export interface RunLoadInput extends PreparedLoad {
  jobId: string;
  /** With the password: the raw data connection authenticates itself. */
  spec: ProfileSpec;
  /** Where the save-config journal lives (see saveJournal.ts). */
  journalDir: string;
  /** A fresh dedicated connection each call: the control connection, and a spare for cleanup if it dies. */
  control: () => Promise<ControlLease>;
  /** WAIT's timeout. Default 30 s. */
  waitTimeoutMs?: number;
}

type Phase = Extract<LoadEvent, { kind: 'phase' }>['phase'];

/** Cleanup commands against a server that may be hung (SIGSTOP, a long fork) must not hold the report forever. */
const CLEANUP_TIMEOUT_MS = 10_000;

/**
 * One bulk load, end to end: preflight, staging, the fast pipe, verification,
 * the switch, persistence and replicas, and a cleanup that always runs.
 * Never throws: every ending is a report (also emitted as the last event).
 */
export function runLoad(input: RunLoadInput, emit: (e: LoadEvent) => void, signal: AbortSignal): Promise<LoadReport> {
  return new LoadRun(input, emit, signal).run();
}

interface Counters {
  expired: number;
  evicted: number;
}

class LoadRun {
  private readonly report: LoadReport;
  private readonly address: string;
  private readonly startedAt = Date.now();
  private readonly leases: ControlLease[] = [];
  private control: Redis | undefined;
  /** The control connection is blocked (a WAIT left running on cancel) or dead: cleanup needs another. */
  private controlUnusable = false;
  private facts: ServerFacts | undefined;
  private lock: TargetLock | undefined;
  private saves: SaveSuspension | undefined;
  private stagingDb: number | undefined;
  /** Staging may hold this load's data (flushed or written): discard it on failure. */
  private stagingDirty = false;
  /** SWAPDB was sent; `swapped` once its reply came. */
  private swapSent = false;
  /** From here on the new data is live: a cancel can no longer undo it. */
  private live = false;
  /** Data was written to the target directly (flush, merge). */
  private targetWritten = false;
  private tracker: DistinctKeyTracker | undefined;
  private guard: InputGuard | undefined;
  private reporter: ProgressReporter | undefined;
  private result: PipeResult | undefined;
  private loadSeconds: number | undefined;
  /** CLIENT ID of the raw data connection while it may still have commands on the server. */
  private rawClientId: number | undefined;
  /** swap: the live DB before anything was written, to check it if the load does not switch. */
  private liveBefore: LiveSnapshot | undefined;
  /** INFO evicted_keys, watched while the pipe runs. */
  private watch: EvictionWatch | undefined;

  constructor(
    private readonly input: RunLoadInput,
    private readonly emitRaw: (e: LoadEvent) => void,
    private readonly signal: AbortSignal,
  ) {
    this.address = `${input.spec.host}:${input.spec.port}`;
    this.report = emptyReport(input, input.targetDb);
  }

  async run(): Promise<LoadReport> {
    let failure: Failure | undefined;
    try {
      await this.execute();
    } catch (err) {
      failure = classifyFailure(err, this.signal, this.errorContext());
      const forbidden = this.guard?.forbidden;
      const evicted = this.watch?.evicted ?? 0;
      if (evicted > 0 && !this.signal.aborted && this.facts !== undefined) {
        failure = { ...failure, outcome: 'failed', code: 'REDIS', message: evictionMessage(evicted, this.facts, '') };
      } else if (forbidden !== undefined && !this.signal.aborted) {
        failure = {
          ...failure,
          outcome: 'failed',
          code: 'VALIDATION',
          message: `The input contains ${forbidden}, which reaches past DB ${this.stagingDb ?? this.input.targetDb} that this load writes; load one DB's commands per file, without ${forbidden}`,
        };
      }
    }
    this.phase('cleanup', failure === undefined ? 'Restoring settings, releasing connections' : 'Cleaning up after the failure');
    if (failure !== undefined) await this.recordFailure(failure);
    await this.cleanup();
    this.finishReport();
    const r = this.report;
    this.phase(r.outcome === 'ok' ? 'done' : r.outcome, r.error?.message ?? this.doneMessage());
    this.emit({ kind: 'report', report: r });
    return r;
  }

  // ---- the happy path -------------------------------------------------------

  private async execute(): Promise<void> {
    const { input, signal } = this;
    this.phase('preflight', `Checking ${this.address}`);
    throwIfCancelled(signal);
    const redis = await this.openControl();
    const facts = await readServerFacts(redis);
    this.facts = facts;
    this.tracker = input.mode === 'merge' ? undefined : new DistinctKeyTracker();
    const guard = new InputGuard(this.tracker);
    this.guard = guard;
    // Opened now so a missing or unreadable file fails before anything on the server changes.
    const source = await openSource(input, this.sourceOptions(guard)).catch((err: unknown) => {
      throw fileError(err, input.fileLabel);
    });
    const pre = preflight(facts, {
      mode: input.mode,
      targetDb: input.targetDb,
      ...(input.stagingDb === undefined ? {} : { stagingDb: input.stagingDb }),
      ...(source.totalBytes === undefined ? {} : { inputBytes: source.totalBytes }),
      bgsave: input.bgsave,
      address: this.address,
      allowEvictionRisk: input.allowEvictionRisk,
    });
    for (const w of pre.warnings) this.warn(w);

    if (input.mode === 'swap') {
      const others = await otherLoads(redis, { host: input.spec.host, port: input.spec.port, jobId: input.jobId });
      this.stagingDb = chooseStagingDb(facts, {
        targetDb: input.targetDb,
        ...(input.stagingDb === undefined ? {} : { requested: input.stagingDb }),
        busy: busyDbs(others.loads),
        address: this.address,
      });
      this.report.stagingDb = this.stagingDb;
    }
    this.lock = await acquireTargetLock(redis, {
      jobId: input.jobId,
      host: input.spec.host,
      port: input.spec.port,
      targetDb: input.targetDb,
      ...(this.stagingDb === undefined ? {} : { stagingDb: this.stagingDb }),
    });
    if (this.lock.warning !== undefined) this.warn(this.lock.warning);

    if (this.stagingDb !== undefined) {
      this.liveBefore = await snapshotLive(redis, input.targetDb);
      await this.prepareStaging(redis, this.stagingDb, facts);
    }

    throwIfCancelled(signal);
    if (facts.configRefused === undefined) {
      this.saves = await suspendAutoSaves(redis, {
        journalDir: input.journalDir,
        host: input.spec.host,
        port: input.spec.port,
        jobId: input.jobId,
      });
      if (this.saves.warning !== undefined) this.warn(this.saves.warning);
    }

    const before = await this.counters(redis);
    const watch = new EvictionWatch(
      async () => (await evictedKeys(redis)) - before.evicted,
      () => void this.stopRawClient(),
    );
    this.watch = watch;
    // The guard stops the load like a cancel, before a command aimed at another DB is sent; the watch at the first eviction.
    const stop = AbortSignal.any([signal, guard.signal, watch.signal]);
    let stream = source.batches(stop);
    throwIfCancelled(signal);
    if (input.mode === 'flush') {
      const peeked = await peekInput(stream);
      stream = peeked.batches;
      if (peeked.empty) {
        const live = await dbSize(redis, input.targetDb);
        this.report.keyCounts = { new: 0, live };
        refuseReplacement({ newKeys: 0, liveKeys: live, newLabel: 'The input has no commands, so the new DB', liveDb: input.targetDb, action: 'flush mode', allowEmpty: input.allowEmpty });
      }
      this.targetWritten = true;
      await flushDb(redis, input.targetDb, facts.version);
      this.warn(`Flush mode emptied DB ${input.targetDb} before loading: readers saw a partial dataset during the load`);
    }

    const batches = this.tracker === undefined ? stream : reserveAhead(stream, this.tracker, source.totalBytes);
    watch.start();
    const result = await this.load(redis, facts, source.totalBytes, batches, stop).finally(async () => {
      this.report.evictedKeys = await watch.stop();
    });
    // flush and merge wrote straight into the target: once loaded, there is nothing a cancel could undo.
    if (this.stagingDb === undefined) this.live = true;
    this.phase('verifying', 'Checking replies and key counts');
    const after = await this.counters(redis);
    const loadedDb = this.stagingDb ?? input.targetDb;
    const verdict = verifyLoad({
      mode: input.mode,
      result,
      maxErrors: input.maxErrors,
      expectedKeys: this.tracker?.trackable === true ? this.tracker.count : undefined,
      untrackedBy: this.tracker?.untrackedBy,
      dbsize: input.mode === 'merge' ? undefined : await dbSize(redis, loadedDb),
      dbLabel: this.stagingDb === undefined ? `DB ${loadedDb}` : `Staging DB ${loadedDb}`,
      expiredDuring: Math.max(0, after.expired - before.expired),
      evictedDuring: Math.max(0, after.evicted - before.evicted),
    });
    this.report.verify = verdict.verify;
    for (const w of verdict.warnings) this.warn(w);
    if (!verdict.ok) {
      throw new LoadFailed('REDIS', verdict.problem ?? 'Verification failed');
    }

    if (this.stagingDb !== undefined) await this.refuseShrink(redis, this.stagingDb, verdict.verify.dbsize);
    throwIfCancelled(signal); // the last point where a cancel leaves everything as it was
    if (this.stagingDb !== undefined) await this.swap(redis, this.stagingDb, facts);
    this.live = true;
    if (input.bgsave) await this.bgsave(redis);
    if (input.waitReplicas !== undefined && input.waitReplicas > 0) await this.replicas(redis, input.waitReplicas);
  }

  private sourceOptions(tracker: KeyTracker): SourceOptions {
    const { input } = this;
    const opts: SourceOptions = { file: input.fileLabel, format: input.format };
    if (input.mapping !== undefined) opts.mapping = input.mapping;
    opts.tracker = tracker;
    return opts;
  }

  private async prepareStaging(redis: Redis, staging: number, facts: ServerFacts): Promise<void> {
    this.phase('staging', `Staging in DB ${staging}; DB ${this.input.targetDb} stays as it is until the switch`);
    const keys = await dbSize(redis, staging);
    checkStagingEmpty(staging, keys, this.input.force, this.address);
    throwIfCancelled(this.signal);
    if (keys === 0) return;
    this.stagingDirty = true;
    await flushDb(redis, staging, facts.version);
    this.warn(`Flushed staging DB ${staging} (${keys} keys) first, as --force asked`);
  }

  private async counters(redis: Redis): Promise<Counters> {
    const stats = (await readInfo(redis, 'stats'))['stats'] ?? {};
    return { expired: infoNumber(stats['expired_keys']), evicted: infoNumber(stats['evicted_keys']) };
  }

  private async load(
    redis: Redis,
    facts: ServerFacts,
    bytesTotal: number | undefined,
    batches: AsyncIterable<CommandBatch>,
    signal: AbortSignal,
  ): Promise<PipeResult> {
    const { input } = this;
    const db = this.stagingDb ?? input.targetDb;
    this.phase('loading', `Loading ${input.fileLabel} into ${this.stagingDb === undefined ? 'DB' : 'staging DB'} ${db}`);
    const usedAtStart = infoNumber((await readInfo(redis, 'memory'))['memory']?.['used_memory']);
    const limit = facts.maxmemory > 0 ? facts.maxmemory : facts.totalSystemMemory;
    let projectionWarned = false;
    const reporter = new ProgressReporter({
      emit: (e) => this.emit(e),
      bytesTotal,
      readMemory: async () => infoNumber((await readInfo(redis, 'memory'))['memory']?.['used_memory']),
      onMemory: (used, p) => {
        const projected = memoryProjection(usedAtStart, used, p.bytesRead, bytesTotal);
        if (projectionWarned || projected === undefined || limit <= 0 || projected <= limit) return;
        projectionWarned = true;
        const what = facts.maxmemory > 0 ? 'maxmemory' : 'system memory';
        this.warn(`At the rate memory grows, the load ends near ${formatBytes(projected)}, past the ${what} of ${formatBytes(limit)}`);
      },
    });
    this.reporter = reporter;
    if (this.stagingDb !== undefined) this.stagingDirty = true;
    else this.targetWritten = true;
    throwIfCancelled(signal);
    const conn = await openRawConnection(input.spec, db, { name: bulkConnectionName(input.jobId, input.targetDb) });
    this.rawClientId = conn.clientId;
    let ok = false;
    try {
      const result = await pipeLoad(conn, batches, {
        file: input.fileLabel,
        maxErrors: input.maxErrors,
        ...(mayEvict(facts) ? { maxInFlightCommands: EVICTING_IN_FLIGHT } : {}),
        signal,
        onProgress: (p: PipeProgress) => reporter.update(p),
      });
      ok = true;
      reporter.finish(result);
      this.result = result;
      this.loadSeconds = result.seconds;
      this.takeCounts(result);
      this.rawClientId = undefined; // every command answered: nothing of ours is left on the server
      return result;
    } finally {
      reporter.finish();
      if (ok) await conn.close();
      else conn.destroy();
    }
  }

  /** Before SWAPDB: the staging DB, verified, against the live DB now (refuseReplacement). */
  private async refuseShrink(redis: Redis, staging: number, verified: number | undefined): Promise<void> {
    const { input } = this;
    const newKeys = verified ?? (await dbSize(redis, staging));
    const liveKeys = await dbSize(redis, input.targetDb);
    this.report.keyCounts = { new: newKeys, live: liveKeys };
    refuseReplacement({
      newKeys,
      liveKeys,
      newLabel: `Staging DB ${staging}`,
      liveDb: input.targetDb,
      action: 'the swap',
      allowEmpty: input.allowEmpty,
      maxShrink: input.maxShrink,
    });
  }

  private async swap(redis: Redis, staging: number, facts: ServerFacts): Promise<void> {
    const target = this.input.targetDb;
    this.phase('swapping', `SWAPDB ${target} ${staging}: the new data goes live in one step`);
    this.swapSent = true;
    // SWAPDB is atomic: a client reading DB `target` sees the old dataset, then the new one, never a mix.
    await redis.swapdb(target, staging);
    this.report.swapped = true;
    try {
      // Staging now holds the old data; ASYNC frees it in a background thread without blocking the server.
      await flushDb(redis, staging, facts.version);
      this.stagingDirty = false;
    } catch (err) {
      this.warn(`The old data is still in DB ${staging} (FLUSHDB failed: ${errorText(err)}); flush it to free the memory`);
    }
  }

  private async bgsave(redis: Redis): Promise<void> {
    this.phase('bgsave', 'BGSAVE: writing a snapshot with the new data');
    try {
      const r = await runBgsave(redis, this.signal);
      this.report.bgsave = r;
      if (r.status !== 'ok') this.warn(`BGSAVE ended with status "${r.status}": the snapshot on disk is not up to date; see the server log`);
    } catch (err) {
      if (err instanceof LoadCancelled) {
        this.warn('Cancelled after the switch: the new data is live; stopped waiting for BGSAVE (it runs on)');
        return;
      }
      const refused = commandRefusal(err);
      if (refused === undefined) throw err;
      this.warn(`BGSAVE is not available on ${this.address} (${refused}): no snapshot was made`);
    }
  }

  private async replicas(redis: Redis, count: number): Promise<void> {
    const timeoutMs = this.input.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    this.phase('replicas', `WAIT for ${count} replica${count === 1 ? '' : 's'} (up to ${timeoutMs / 1000} s)`);
    try {
      const r = await untilCancelled(waitForReplicas(redis, count, this.input.jobId, timeoutMs), this.signal);
      this.report.replicas = r.replicas;
      if (r.warning !== undefined) this.warn(r.warning);
    } catch (err) {
      if (err instanceof LoadCancelled) {
        // WAIT is still blocking the control connection: cleanup uses a fresh one.
        this.controlUnusable = true;
        this.warn('Cancelled after the switch: the new data is live; stopped waiting for replicas');
        return;
      }
      const refused = commandRefusal(err);
      if (refused === undefined) throw err;
      this.warn(`WAIT is not available on ${this.address} (${refused}): replicas were not checked`);
    }
  }

  // ---- failure and cleanup --------------------------------------------------

  /** Never throws: discardStaging and stopRawClient catch their own errors. */
  private async recordFailure(f: Failure): Promise<void> {
    const r = this.report;
    const counts = f.result ?? this.result ?? this.reporter?.last;
    if (counts !== undefined) this.takeCounts(counts);
    if (f.result !== undefined) this.loadSeconds = f.result.seconds;
    await this.stopRawClient();
    if (this.live && f.outcome === 'cancelled') {
      // Nothing to undo: the switch happened. Report what is true, which is success.
      this.warn('Cancelled after the new data went live; the load itself is complete');
      return;
    }
    r.outcome = f.outcome;
    const parts = [f.message];
    if (this.stagingDb !== undefined) {
      parts.push(await this.discardStaging());
    } else if (this.targetWritten) {
      const acknowledged = Math.max(0, r.replies - r.errors);
      parts.push(
        `DB ${this.input.targetDb} is partially loaded: ${acknowledged} of ${r.commands} commands sent were acknowledged` +
          (f.outcomeUnknown ? '; the outcome of the commands in flight is unknown' : ''),
      );
    } else {
      parts.push(`DB ${this.input.targetDb} was not touched`);
    }
    r.error = { code: f.code, message: sentences(...parts), ...(f.field === undefined ? {} : { field: f.field }) };
  }

  /**
   * Make sure nothing of the load still executes. A cancel or a lost socket
   * leaves the raw client's unread commands on the server; the pipe resets the
   * socket, but a reset and our next command travel separate connections, so
   * CLIENT KILL ID (which frees the client and drops its unread input at once,
   * Redis being single-threaded) settles it before staging is flushed.
   */
  private async stopRawClient(): Promise<void> {
    const id = this.rawClientId;
    if (id === undefined) return;
    this.rawClientId = undefined;
    try {
      await this.onCleanupConnection((redis) => redis.client('KILL', 'ID', String(id)));
    } catch {
      // "No such client": it is gone already, which is what we want; an unreachable server runs nothing either.
    }
  }

  /** swap failed: drop what staging holds; the target is never touched here. */
  private async discardStaging(): Promise<string> {
    const staging = this.stagingDb as number;
    const target = this.input.targetDb;
    const unknownSwap = this.swapSent && !this.report.swapped;
    const live = unknownSwap
      ? `SWAPDB's outcome is unknown: DB ${target} holds either the old or the new dataset, each complete`
      : this.report.swapped
        ? `DB ${target} holds the new data`
        : await this.checkLiveDb();
    if (!this.stagingDirty) return live;
    try {
      await this.onCleanupConnection((redis) => flushDb(redis, staging, this.facts?.version ?? ''));
      this.stagingDirty = false;
      return `${live}; staging DB ${staging} was flushed`;
    } catch (err) {
      return `${live}; staging DB ${staging} could not be flushed (${errorText(err)}): flush it by hand`;
    }
  }

  /**
   * The live DB after a swap load that did not switch: "untouched" only when
   * DBSIZE and the keys sampled before say so (snapshotLive).
   */
  private async checkLiveDb(): Promise<string> {
    const target = this.input.targetDb;
    const before = this.liveBefore;
    if (before === undefined) return `nothing was written to DB ${target}`;
    try {
      const c = await this.onCleanupConnection((redis) => checkLive(redis, before));
      this.report.liveCheck = c;
      return describeLive(c);
    } catch (err) {
      return `DB ${target} could not be checked (${errorText(err)}); this load never wrote it`;
    }
  }

  /** Every step runs whatever the others did: saves back on, claim released, connections closed. */
  private async cleanup(): Promise<void> {
    const saves = this.saves;
    if (saves !== undefined) {
      const connections: (() => Promise<Redis>)[] = [];
      const control = this.control;
      if (control !== undefined && !this.controlUnusable && control.status === 'ready') {
        connections.push(() => Promise.resolve(control));
      }
      connections.push(() => this.freshConnection());
      try {
        const restored = await withTimeout(resumeAutoSaves(saves, connections), CLEANUP_TIMEOUT_MS, 'restoring the save config');
        if (restored !== undefined) {
          this.report.saveConfig = restored;
          if (!restored.restored && restored.note !== undefined) this.warn(`Automatic saves: ${restored.note}`);
        }
      } catch (err) {
        const original = saves.original ?? '';
        this.report.saveConfig = { original, restored: false, note: errorText(err) };
        this.warn(`Automatic saves may still be off: ${errorText(err)}; the journal in ${this.input.journalDir} restores them at the next start`);
      }
    }
    this.lock?.release();
    await Promise.all(this.leases.splice(0).map((l) => l.release().catch(() => undefined)));
  }

  /** Run fn on the control connection, or on a fresh one when it is gone or blocked. */
  private async onCleanupConnection<T>(fn: (redis: Redis) => Promise<T>): Promise<T> {
    const control = this.control;
    if (control !== undefined && !this.controlUnusable && control.status === 'ready') {
      try {
        return await withTimeout(fn(control), CLEANUP_TIMEOUT_MS, 'cleanup');
      } catch (err) {
        if (isReplyError(err)) throw err;
        this.controlUnusable = true;
      }
    }
    return withTimeout(
      this.freshConnection().then((redis) => fn(redis)),
      CLEANUP_TIMEOUT_MS,
      'cleanup',
    );
  }

  private async freshConnection(): Promise<Redis> {
    const lease = await this.input.control();
    this.leases.push(lease);
    return lease.redis;
  }

  private async openControl(): Promise<Redis> {
    const lease = await this.input.control();
    this.leases.push(lease);
    this.control = lease.redis;
    return lease.redis;
  }

  // ---- report and events ----------------------------------------------------

  private takeCounts(p: PipeProgress | PipeResult): void {
    const r = this.report;
    r.records = p.records;
    r.commands = p.commands;
    r.replies = p.replies;
    r.errors = p.errors;
    if ('firstErrors' in p) r.firstErrors = p.firstErrors.slice(0, 100);
  }

  private finishReport(): void {
    const r = this.report;
    r.seconds = (Date.now() - this.startedAt) / 1000;
    const loading = this.loadSeconds ?? r.seconds;
    r.opsPerSec = loading > 0 ? Math.round(r.replies / loading) : 0;
  }

  private doneMessage(): string {
    const r = this.report;
    const where = r.swapped ? `DB ${r.targetDb} now holds the new data` : `DB ${r.targetDb} loaded`;
    return `${where}: ${r.commands} commands, ${r.errors} errors, ${r.seconds.toFixed(1)} s`;
  }

  private errorContext(): { host: string; port: number } {
    return { host: this.input.spec.host, port: this.input.spec.port };
  }

  private phase(phase: Phase, message: string): void {
    this.emit({ kind: 'phase', phase, message, at: Date.now() });
  }

  private warn(message: string): void {
    this.report.warnings.push(message);
    this.emit({ kind: 'warning', message, at: Date.now() });
  }

  private emit(e: LoadEvent): void {
    try {
      this.emitRaw(e);
    } catch {
      // A failing listener must not take the load (and its cleanup) down with it.
    }
  }
}

/** stat/open errors of the input name the file as the user knows it, not our path. */
function fileError(err: unknown, label: string): unknown {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  if (code === 'ENOENT') return new AppError('NOT_FOUND', `The input file "${label}" no longer exists`);
  if (code === 'EACCES' || code === 'EPERM') return new AppError('VALIDATION', `The input file "${label}" cannot be read (permission denied)`);
  return err;
}

function isReplyError(err: unknown): boolean {
  return err instanceof Error && err.name === 'ReplyError';
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the server within ${ms / 1000} s while ${what}`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Batches read before the key table is sized for the whole file: enough to judge bytes per key. */
const RESERVE_AFTER_BATCHES = 2;
/** At most this many keys are reserved ahead (8 bytes a slot, two slots a key: 512 MB). */
const MAX_RESERVED_KEYS = 32_000_000;

/**
 * The source's batches, unchanged; after the first few, the distinct-key table
 * is sized for the file: its size times the distinct keys per byte read so far.
 * An estimate that falls short only means the table grows later, as it would have.
 */
async function* reserveAhead(batches: AsyncIterable<CommandBatch>, tracker: DistinctKeyTracker, totalBytes: number | undefined): AsyncGenerator<CommandBatch> {
  let seen = 0;
  for await (const batch of batches) {
    if (++seen === RESERVE_AFTER_BATCHES && totalBytes !== undefined && batch.bytesRead > 0 && tracker.trackable) {
      // tracker.count runs ahead of this batch (the rest of its read chunk is parsed): records is the safer rate.
      const perByte = Math.min(tracker.count, batch.records) / batch.bytesRead;
      tracker.reserve(Math.min(MAX_RESERVED_KEYS, Math.ceil(perByte * totalBytes * 1.05)));
    }
    yield batch;
  }
}
