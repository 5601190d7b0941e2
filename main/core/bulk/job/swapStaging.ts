import type { Redis } from 'ioredis';
import type { PreparedLoad } from '../prepareLoad';
import { throwIfCancelled } from './cancellation';
import { commandRefusal, errorText } from './commandRefusal';
import type { ControlLease, ControlLink } from './controlLink';
import { dbSize, flushDb } from './dbOps';
import { flushArgs } from './preflight';
import { checkLive, describeLive, snapshotLive, type LiveSnapshot } from './liveCheck';
import { LiveWriteCounter, refuseLiveWrites } from './liveWrites';
import type { LoadLog } from './loadLog';
import { refuseReplacement } from './replaceGuard';
import type { ServerFacts } from './serverFacts';
import { checkStagingEmpty } from './stagingDb';
import { cleanCommand, foreignReason, type WrittenBound } from './stagingHold';
import { testPause } from '../../jobs/testPause';
import { removeStagingJournal, writeStagingJournal } from './stagingJournal';
import { STAGING_MARKER_KEY, claimStaging, markerText, newMarker, readMarkerRaw, type StagingMarker } from './stagingMarker';

export interface SwapContext {
  input: Pick<PreparedLoad, 'targetDb' | 'force' | 'allowEmpty' | 'maxShrink' | 'allowLiveWrites'>;
  log: LoadLog;
  link: ControlLink;
  signal: AbortSignal;
  address: string;
  /** Who stamps the staging DB (stagingMarker.ts) and where its journal goes (stagingJournal.ts). */
  stamp: { jobId: string; host: string; port: number; journalDir: string };
  /** The keys this load may have written so far: a failed load flushes staging only when it holds no more (stagingHold.ts). */
  written: () => WrittenBound;
}

/**
 * swap mode's staging DB, from its choice to the switch, and its discard when
 * the load does not get there. The live DB is only ever read: sampled before,
 * to say afterwards whether it really is untouched (liveCheck.ts).
 */
export class SwapStaging {
  /** Staging may hold this load's data (flushed or written): discard it on failure. */
  dirty = false;
  /** SWAPDB was sent; report.swapped once its reply came. */
  private swapSent = false;
  /** The live DB before anything was written, to check it if the load does not switch. */
  private liveBefore: LiveSnapshot | undefined;
  /** The marker this load wrote into staging, and its exact value. */
  private marker: StagingMarker | undefined;
  private markerRaw: string | undefined;
  /** The staging journal file, removed once staging is flushed. */
  private journal: string | undefined;
  /** Other clients' writes to the live DB, counted from before staging to the switch. */
  private liveWrites: LiveWriteCounter | undefined;

  constructor(
    readonly db: number,
    private readonly facts: ServerFacts,
    private readonly ctx: SwapContext,
  ) {}

  /**
   * The live DB's writes counted from here on, the live DB sampled, then
   * staging claimed: only while it holds no key (or, with --force, flushed
   * in the same step).
   */
  async prepare(redis: Redis, lease: () => Promise<ControlLease>): Promise<void> {
    const { input, log, stamp } = this.ctx;
    this.liveWrites = await LiveWriteCounter.start(redis, lease, { db: input.targetDb, ...stamp });
    this.liveBefore = await snapshotLive(redis, input.targetDb);
    log.phase('staging', `Staging in DB ${this.db}; DB ${input.targetDb} stays as it is until the switch`);
    const keys = await dbSize(redis, this.db);
    checkStagingEmpty(this.db, keys, input.force, this.ctx.address);
    throwIfCancelled(this.ctx.signal);
    await this.claimDb(redis, keys > 0);
    if (keys > 0) log.warn(`Flushed staging DB ${this.db} (${keys} keys) first, as --force asked`);
  }

  /**
   * Journal first, then the marker, before any data: a crash at any later
   * point leaves a DB that a cleanup can tell as ours (staleStaging.ts). The
   * marker goes in only while the DB is empty (claimStaging): an application
   * that wrote into it since it was chosen keeps its keys, and the load stops.
   */
  private async claimDb(redis: Redis, flushFirst: boolean): Promise<void> {
    const { stamp, input } = this.ctx;
    this.journal = writeStagingJournal(stamp.journalDir, { host: stamp.host, port: stamp.port, jobId: stamp.jobId, db: this.db, at: Date.now() });
    const marker = newMarker(stamp.jobId, input.targetDb);
    try {
      const claim = await claimStaging(redis, this.db, marker, { flushFirst, async: flushArgs(this.facts.version).length > 0 });
      if (!claim.claimed) {
        this.forget();
        checkStagingEmpty(this.db, claim.keys, false, this.ctx.address);
      } else {
        this.markerRaw = claim.raw;
        this.marker = marker;
        this.dirty = true;
      }
    } catch (err) {
      // An ACL that refuses the marker's key: the load goes on unstamped, as loads did before markers.
      const refused = commandRefusal(err);
      if (refused === undefined) {
        this.forget();
        throw err;
      }
      this.dirty = true;
      if (flushFirst) await flushDb(redis, this.db, this.facts.version);
      this.ctx.log.warn(`Staging DB ${this.db} could not be stamped (${refused}): should this load be killed, flush it by hand`);
    }
  }

  /** Staging's DBSIZE without our marker: the keys the load wrote, as verification compares them. */
  async dataKeys(redis: Redis): Promise<number> {
    const n = await dbSize(redis, this.db);
    if (this.markerRaw === undefined) return n;
    const raw = await readMarkerRaw(redis, this.db);
    // The input may have written a key of the marker's name: then it is data, and counted.
    return raw === this.markerRaw ? n - 1 : n;
  }

  private forget(): void {
    this.dirty = false;
    if (this.journal !== undefined) removeStagingJournal(this.journal);
    this.journal = undefined;
  }

  /**
   * Before SWAPDB: the staging DB, verified, against the live DB now
   * (refuseReplacement), and the writes other clients made to the live DB,
   * which the switch would discard (refuseLiveWrites).
   */
  async beforeSwitch(redis: Redis, verified: number | undefined): Promise<void> {
    const { input, log } = this.ctx;
    const newKeys = verified ?? (await this.dataKeys(redis));
    const liveKeys = await dbSize(redis, input.targetDb);
    log.report.keyCounts = { new: newKeys, live: liveKeys };
    if (this.liveWrites !== undefined) {
      await refuseLiveWrites(this.liveWrites, redis, { allow: input.allowLiveWrites, keysBefore: this.liveBefore?.keys, keysNow: liveKeys, log });
    }
    refuseReplacement({
      newKeys,
      liveKeys,
      newLabel: `Staging DB ${this.db}`,
      liveDb: input.targetDb,
      action: 'the swap',
      allowEmpty: input.allowEmpty,
      maxShrink: input.maxShrink,
    });
  }

  async swap(redis: Redis): Promise<void> {
    const { input, log } = this.ctx;
    const target = input.targetDb;
    log.phase('swapping', `SWAPDB ${target} ${this.db}: the new data goes live in one step`);
    // Selects staging: the MULTI below runs there.
    const own = this.markerRaw !== undefined && (await readMarkerRaw(redis, this.db)) === this.markerRaw;
    this.swapSent = true;
    // SWAPDB is atomic: a client reading DB `target` sees the old dataset, then the new one, never a mix.
    // In the same transaction the marker leaves the new data (it never goes live) and stamps the old
    // data now in staging, so a crash before the FLUSHDB below still leaves it to a cleanup.
    // The live-write count closes in the same MULTI, just before SWAPDB: no write can fall between.
    const tx = redis.multi();
    let at = 0;
    if (own) {
      tx.del(STAGING_MARKER_KEY);
      at++;
    }
    if (this.liveWrites?.markSwitch(tx) === true) at++;
    tx.swapdb(target, this.db);
    if (this.marker !== undefined) tx.set(STAGING_MARKER_KEY, markerText({ ...this.marker, phase: 'old-data' }));
    const replies = await tx.exec();
    const swapReply = replies?.[at];
    if (replies === null || swapReply === undefined) throw new Error('SWAPDB: the transaction was discarded');
    if (swapReply[0] !== null) throw swapReply[0];
    log.report.swapped = true;
    const counter = this.liveWrites;
    if (counter !== undefined) {
      await counter.afterSwitch();
      // beforeSwitch refused any write counted then: these came in the moment between its check and this MULTI.
      if (!input.allowLiveWrites && counter.seen > 0)
        log.warn(`${counter.seen} writes to DB ${target} by other clients came between the last check and SWAPDB, and were discarded by the switch`);
    }
    testPause('swapped');
    try {
      // Staging now holds the old data; ASYNC frees it in a background thread without blocking the server.
      await flushDb(redis, this.db, this.facts.version);
      this.forget();
    } catch (err) {
      log.warn(`The old data is still in DB ${this.db} (FLUSHDB failed: ${errorText(err)}); flush it to free the memory`);
    }
  }

  /** The load failed: drop what staging holds and say what the live DB holds. Never throws. */
  async discard(): Promise<string> {
    const { input, log, link } = this.ctx;
    const target = input.targetDb;
    const unknownSwap = this.swapSent && !log.report.swapped;
    const live = unknownSwap
      ? `SWAPDB's outcome is unknown: DB ${target} holds either the old or the new dataset, each complete`
      : log.report.swapped
        ? `DB ${target} holds the new data`
        : await this.checkLiveDb();
    if (!this.dirty) return live;
    try {
      // Before a switch staging holds what this load wrote, unless another client wrote there too: that is never flushed.
      const held = this.swapSent ? undefined : await link.onCleanupConnection((redis) => this.holdIfForeign(redis));
      if (held !== undefined) return `${live}; ${held}`;
      await link.onCleanupConnection((redis) => flushDb(redis, this.db, this.facts.version));
      this.forget();
      return `${live}; staging DB ${this.db} was flushed`;
    } catch (err) {
      return `${live}; staging DB ${this.db} could not be flushed (${errorText(err)}): flush it by hand`;
    }
  }

  /**
   * Staging left as it is when it holds keys this load did not write (or it
   * cannot tell): its marker says "held", so no cleanup flushes it either
   * (staleStaging.ts), and the report says where it is and how to empty it.
   * Returns that sentence, or undefined when staging may be flushed.
   */
  private async holdIfForeign(redis: Redis): Promise<string | undefined> {
    const keys = await this.dataKeys(redis);
    const reason = foreignReason(keys, this.ctx.written());
    if (reason === undefined) return undefined;
    const { stamp, log } = this.ctx;
    if (this.marker !== undefined && this.markerRaw !== undefined && (await readMarkerRaw(redis, this.db)) === this.markerRaw) {
      await redis.set(STAGING_MARKER_KEY, markerText({ ...this.marker, phase: 'held' }));
    }
    // The marker now tells `cacheboard doctor` about it; a journal would make every start look again.
    this.forget();
    const command = cleanCommand(stamp, this.db, this.facts.version);
    log.report.stagingLeft = { db: this.db, keys, reason, cleanCommand: command };
    return `staging DB ${this.db} was NOT flushed and is left as it is (${keys} keys): ${reason}. Look at it, then empty it with: ${command}`;
  }

  /** The live DB's writes for the report (also after a failure), the subscriber closed and notify-keyspace-events put back. Never throws. */
  async release(connections: (() => Promise<Redis>)[]): Promise<void> {
    const counter = this.liveWrites;
    if (counter === undefined) return;
    this.liveWrites = undefined;
    this.ctx.log.report.liveWrites = counter.report(this.ctx.log.report.swapped);
    if (counter.missing !== undefined) {
      this.ctx.log.unprotected(counter.missing, 'writes other clients made to the live DB during the load were not counted (SWAPDB discards them)', false);
    }
    const warning = await counter.stop(connections);
    if (warning !== undefined) this.ctx.log.warn(warning);
  }

  /**
   * The live DB after a swap load that did not switch: "untouched" only when
   * DBSIZE and the keys sampled before say so (snapshotLive).
   */
  private async checkLiveDb(): Promise<string> {
    const { input, log, link } = this.ctx;
    const before = this.liveBefore;
    if (before === undefined) return `nothing was written to DB ${input.targetDb}`;
    try {
      const c = await link.onCleanupConnection((redis) => checkLive(redis, before));
      log.report.liveCheck = c;
      return describeLive(c);
    } catch (err) {
      return `DB ${input.targetDb} could not be checked (${errorText(err)}); this load never wrote it`;
    }
  }
}
