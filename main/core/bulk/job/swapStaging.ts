import type { Redis } from 'ioredis';
import type { PreparedLoad } from '../prepareLoad';
import { throwIfCancelled } from './cancellation';
import { commandRefusal, errorText } from './commandRefusal';
import type { ControlLink } from './controlLink';
import { dbSize, flushDb } from './dbOps';
import { checkLive, describeLive, snapshotLive, type LiveSnapshot } from './liveCheck';
import type { LoadLog } from './loadLog';
import { refuseReplacement } from './replaceGuard';
import type { ServerFacts } from './serverFacts';
import { checkStagingEmpty } from './stagingDb';
import { testPause } from './testPause';
import { removeStagingJournal, writeStagingJournal } from './stagingJournal';
import { STAGING_MARKER_KEY, markerText, newMarker, readMarkerRaw, writeMarker, type StagingMarker } from './stagingMarker';

export interface SwapContext {
  input: Pick<PreparedLoad, 'targetDb' | 'force' | 'allowEmpty' | 'maxShrink'>;
  log: LoadLog;
  link: ControlLink;
  signal: AbortSignal;
  address: string;
  /** Who stamps the staging DB (stagingMarker.ts) and where its journal goes (stagingJournal.ts). */
  stamp: { jobId: string; host: string; port: number; journalDir: string };
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

  constructor(
    readonly db: number,
    private readonly facts: ServerFacts,
    private readonly ctx: SwapContext,
  ) {}

  /** The live DB sampled, then staging checked empty (or, with --force, flushed). */
  async prepare(redis: Redis): Promise<void> {
    const { input, log } = this.ctx;
    this.liveBefore = await snapshotLive(redis, input.targetDb);
    log.phase('staging', `Staging in DB ${this.db}; DB ${input.targetDb} stays as it is until the switch`);
    const keys = await dbSize(redis, this.db);
    checkStagingEmpty(this.db, keys, input.force, this.ctx.address);
    throwIfCancelled(this.ctx.signal);
    if (keys > 0) {
      this.dirty = true;
      await flushDb(redis, this.db, this.facts.version);
      log.warn(`Flushed staging DB ${this.db} (${keys} keys) first, as --force asked`);
    }
    await this.stampDb(redis);
  }

  /**
   * Journal first, then the marker, before any data: a crash at any later
   * point leaves a DB that a cleanup can tell as ours (staleStaging.ts).
   */
  private async stampDb(redis: Redis): Promise<void> {
    const { stamp, input } = this.ctx;
    this.journal = writeStagingJournal(stamp.journalDir, { host: stamp.host, port: stamp.port, jobId: stamp.jobId, db: this.db, at: Date.now() });
    this.dirty = true;
    const marker = newMarker(stamp.jobId, input.targetDb);
    try {
      this.markerRaw = await writeMarker(redis, this.db, marker);
      this.marker = marker;
    } catch (err) {
      // An ACL that refuses the marker's key: the load goes on unstamped, as loads did before markers.
      const refused = commandRefusal(err);
      if (refused === undefined) throw err;
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

  /** Before SWAPDB: the staging DB, verified, against the live DB now (refuseReplacement). */
  async refuseShrink(redis: Redis, verified: number | undefined): Promise<void> {
    const { input, log } = this.ctx;
    const newKeys = verified ?? (await this.dataKeys(redis));
    const liveKeys = await dbSize(redis, input.targetDb);
    log.report.keyCounts = { new: newKeys, live: liveKeys };
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
    const tx = redis.multi();
    if (own) tx.del(STAGING_MARKER_KEY);
    tx.swapdb(target, this.db);
    if (this.marker !== undefined) tx.set(STAGING_MARKER_KEY, markerText({ ...this.marker, phase: 'old-data' }));
    const replies = await tx.exec();
    const swapReply = replies?.[own ? 1 : 0];
    if (replies === null || swapReply === undefined) throw new Error('SWAPDB: the transaction was discarded');
    if (swapReply[0] !== null) throw swapReply[0];
    log.report.swapped = true;
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
      await link.onCleanupConnection((redis) => flushDb(redis, this.db, this.facts.version));
      this.forget();
      return `${live}; staging DB ${this.db} was flushed`;
    } catch (err) {
      return `${live}; staging DB ${this.db} could not be flushed (${errorText(err)}): flush it by hand`;
    }
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
