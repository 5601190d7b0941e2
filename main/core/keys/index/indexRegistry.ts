import type { Role } from '../../../../app/define';
import { AppError } from '../../../../app/errors';
import type { JobId } from '../../../../app/schemas/common';
import type { IndexState } from '../../../../app/schemas/keys';
import type { KeysIndexJobs } from '../indexJobs';
import type { RawTarget } from '../../resp/rawTarget';
import { keyName } from '../../text/keyText';
import { buildIndex, DEFAULT_BUILD_TUNING, type BuildTuning, type DeepPass } from './buildIndex';
import { indexMaxAgeMs } from './indexAge';
import { applyChanges, type KeyChange } from './indexEdits';
import type { KeysReader } from './indexTargets';
import { emptyState, KeyIndex, type IndexLedger } from './keyIndex';
import { recheckGone } from './recheckGone';

/**
 * Memory budget of every index of the process together (the counts are kept whatever the names
 * cost). Names cost ~37 bytes a key with their ~16 bytes of text: 512 MB holds the names of 10M
 * such keys, so a small folder of a 10M-key DB still opens from memory rather than by a
 * whole-keyspace SCAN, and a dozen separators tried on it cannot take serve past it.
 */
export const DEFAULT_BUDGET_BYTES = 512 * 1024 * 1024;
/** Free room a new build needs to start (after the oldest idle indexes went): less is refused with the reason. */
const MIN_START_BYTES = 16 * 1024 * 1024;
/** An index read (a tree, a list) within this long is in use: not let go to make room. */
const IDLE_MS = 60_000;
/** Indexes kept at once, whatever their size (a failed build's holds nearly nothing). */
const MAX_INDEXES = 64;

interface Slot {
  where: IndexWhere;
  /** The last build that finished (or the first one's partial result, cancelled or failed). */
  ready: KeyIndex | null;
  /** A build under way: serves until a ready one exists, else waits to replace it. */
  building: KeyIndex | null;
  /** Last read or built (ms): idle after IDLE_MS. */
  usedAt: number;
  /** The connection the index was built over, to check keys a bulk action may have removed. */
  reader: KeysReader | null;
  /** The recheck under way, so a second waits for it. */
  rechecking: Promise<void>;
}

export interface IndexWhere {
  /** The profile as the caller named it (a bulk action on it reaches every connection's index). */
  profileId: string;
  /** `connectionId/db`: the session's connection (an analyst's may carry other Redis credentials). */
  target: string;
  db: number;
  separator: string;
}

export interface RegistryOptions {
  /** Every index together (default DEFAULT_BUDGET_BYTES). */
  budgetBytes?: number;
  /** One index at most (default: the whole budget). */
  indexBytes?: number;
  idleMs?: number;
  minStartBytes?: number;
  tuning?: Partial<BuildTuning>;
  /** A kept index older than this is scanned again when the page opens (default indexMaxAgeMs(): 15 min or the environment's). */
  maxAgeMs?: number;
  /** The clock ages are read by (tests move it on). */
  now?: () => number;
}

/** What opening the Keys page did: reused the kept index (jobId null, or the build under way), or started a scan. */
export interface Opened {
  jobId: JobId | null;
  started: boolean;
  state: IndexState;
}

export interface StartOptions {
  deep?: DeepPass | undefined;
  /** The connection the build reads over (kept for the rechecks after bulk deletes). */
  reader?: KeysReader;
  /** An analyst uses the shared index: a build only where none is complete and none runs. */
  role?: Role;
}

/**
 * The name indexes of this process, one per (connection, DB, separator), shared by every
 * user of that connection, all within one memory budget (`budgetBytes`): an index asks it for
 * room as it grows; past it the oldest idle index (not read for IDLE_MS, not building) goes,
 * and when none can, a growing build keeps counts only and a new one is refused with the
 * reason. Refresh is start again: the old index serves until the new one is done; a build
 * started while one runs on the same slot cancels that one (ops only).
 */
export class IndexRegistry implements IndexLedger {
  /** In use order: the most recently used last. */
  private readonly slots = new Map<string, Slot>();
  private readonly budget: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly jobs: KeysIndexJobs,
    private readonly options: RegistryOptions = {},
  ) {
    this.budget = options.budgetBytes ?? DEFAULT_BUDGET_BYTES;
    this.maxAgeMs = options.maxAgeMs ?? indexMaxAgeMs();
    this.now = options.now ?? Date.now;
  }

  /**
   * The Keys page opens on (connection, DB, separator): the kept index is reused as it is (no
   * SCAN) unless there is none, or its scan is older than maxAgeMs; then a scan starts (for an
   * analyst too: the age rule is the server's, not a refresh the analyst asked for). A build
   * under way is followed, not restarted.
   */
  open(where: IndexWhere, targets: (connectionName: string) => RawTarget[], opts: StartOptions = {}): Opened {
    const slot = this.slots.get(slotKey(where));
    const running = this.jobs.runningOn(slotKey(where));
    if (running !== undefined) return { jobId: running as JobId, started: false, state: this.state(where) };
    const ready = slot?.ready ?? null;
    if (ready !== null && !this.expired(ready)) return { jobId: null, started: false, state: this.state(where) };
    const { role: _asked, ...rest } = opts;
    // No index yet: the analyst's own start rules apply (it may build where none exists).
    const jobId = this.start(where, targets, ready === null ? opts : rest);
    return { jobId, started: true, state: this.state(where) };
  }

  /** The scan of `index` is older than maxAgeMs (a failed or cancelled one counts from its end too). */
  private expired(index: KeyIndex): boolean {
    const at = index.state.finishedAt;
    return index.state.status !== 'building' && at !== null && this.now() - at > this.maxAgeMs;
  }

  /** `deep`: after the names, the deep pass (deepIndex.ts) probes every key for type, TTL and memory. */
  start(where: IndexWhere, targets: (connectionName: string) => RawTarget[], opts: StartOptions = {}): JobId {
    const key = slotKey(where);
    const existing = this.slots.get(key);
    if (opts.role === 'analyst' && existing !== undefined) refuseAnalyst(existing, opts.deep !== undefined);
    const room = this.makeRoom(this.options.minStartBytes ?? Math.min(MIN_START_BYTES, this.budget / 4), key);
    if (!room) throw this.full();
    const running = this.jobs.runningOn(key);
    if (running !== undefined) this.jobs.cancel(running);
    const slot = this.slot(key, where);
    if (opts.reader !== undefined) slot.reader = opts.reader;
    const tuning = { ...DEFAULT_BUILD_TUNING, ...this.options.tuning };
    const indexBytes = Math.min(this.options.indexBytes ?? this.budget, this.budget);
    return this.jobs.start(key, async (id, emit, signal) => {
      const index = new KeyIndex(Buffer.from(where.separator, 'utf8'), indexBytes, indexBytes / 2, this);
      index.state.jobId = id;
      index.state.budgetBytes = this.budget;
      slot.building = index;
      slot.usedAt = Date.now();
      index.state.deep = opts.deep !== undefined;
      const end = await buildIndex(targets(`cacheboard:keys:${id}`), index, emit, signal, tuning, opts.deep);
      index.settle();
      // Cancelled because a newer build took its place: that one serves next, not this.
      const superseded = slot.building !== index;
      if (!superseded) slot.building = null;
      // A refresh that did not finish leaves the last complete index serving.
      if (end.kind === 'done' || (!superseded && (slot.ready === null || !slot.ready.state.complete))) slot.ready = index;
      slot.usedAt = Date.now();
      return end;
    });
  }

  /** The index that answers now: the last finished build, else the one under way. */
  serving(where: IndexWhere): KeyIndex | null {
    const key = slotKey(where);
    const slot = this.slots.get(key);
    if (slot === undefined) return null;
    this.slots.delete(key);
    this.slots.set(key, slot);
    slot.usedAt = Date.now();
    return slot.ready ?? slot.building;
  }

  state(where: IndexWhere): IndexState {
    const index = this.serving(where);
    const state = index?.snapshot() ?? emptyState(this.budget);
    state.budgetBytes = this.budget;
    state.maxAgeMs = this.maxAgeMs;
    state.expired = index !== null && this.expired(index);
    return state;
  }

  /**
   * Keys a key edit or a bulk action changed on (profile, DB), as the action read them back
   * (exists or gone): every finished index of that DB takes them in or out at once, without a
   * scan. One being built is told only (its SCAN may or may not have passed them).
   */
  keysChanged(profileId: string, db: number, changes: readonly KeyChange[], what: string): void {
    if (changes.length === 0) return;
    for (const slot of this.slots.values()) {
      if (slot.where.profileId !== profileId || slot.where.db !== db) continue;
      if (slot.building !== null)
        slot.building.state.stale = `${what} ran while this index was being built: it may or may not count the keys it changed; Re-index once the build ends.`;
      const index = slot.ready;
      if (index === null || index === slot.building) continue;
      const r = applyChanges(index, changes);
      index.state.followed = (index.state.followed ?? 0) + r.added + r.removed;
      if (r.unfollowed)
        index.state.stale = `${what} ran after this index was built, and it holds counts only (no names): its counts may be off until a Re-index.`;
      else if (r.added > 0 && index.deep !== null)
        index.state.stale = `${what} added keys after the deep pass: they are in the tree and the name lists, not in the lists sorted by TTL or memory until a Re-index.`;
    }
  }

  /** Bytes every index holds (or was granted while it builds), together. */
  held(): number {
    let sum = 0;
    for (const s of this.slots.values()) sum += (s.ready?.held ?? 0) + (s.building !== null && s.building !== s.ready ? s.building.held : 0);
    return sum;
  }

  /** IndexLedger: room for `index` to grow by `bytes`, letting the oldest idle indexes go if need be. */
  grant(index: KeyIndex, bytes: number): boolean {
    const own = [...this.slots].find(([, s]) => s.building === index || s.ready === index)?.[0];
    // What the index already holds past its allowance (a chunk just made) is counted in held() already.
    return this.makeRoom(Math.max(0, index.allowed + bytes - index.held), own);
  }

  /**
   * After a bulk action changed keys matching `match` on (profile, DB): every index of that DB
   * says so at once; one whose names are held checks each name that matches (TYPE, paced in
   * pages) and takes out the keys that are gone, then says nothing more. Resolves when done.
   */
  async afterAction(profileId: string, db: number, match: Buffer, what: string): Promise<void> {
    const glob = keyName(match).text;
    const work: Promise<void>[] = [];
    for (const slot of this.slots.values()) {
      if (slot.where.profileId !== profileId || slot.where.db !== db) continue;
      if (slot.building !== null)
        slot.building.state.stale = `${what} ran while this index was being built: counts under ${glob} may include keys it removed; Refresh once the build ends.`;
      const index = slot.ready;
      if (index === null || index === slot.building) continue;
      if (index.store === null || !index.state.complete || slot.reader === null) {
        index.state.stale = `${what} ran after this index was built: counts under ${glob} may include keys it removed; Refresh to count again.`;
        continue;
      }
      const reader = slot.reader;
      index.state.stale = `${what} ran: checking which keys under ${glob} are gone…`;
      index.state.rechecking = true;
      const run = slot.rechecking.then(async () => {
        try {
          index.state.followed = (index.state.followed ?? 0) + (await recheckGone(index, match, reader));
          index.state.stale = null;
        } catch (e) {
          index.state.stale = `${what} ran after this index was built, and checking the keys under ${glob} failed (${e instanceof Error ? e.message : String(e)}): counts may include keys it removed; Refresh to count again.`;
        } finally {
          index.state.rechecking = false;
        }
      });
      slot.rechecking = run;
      work.push(run);
    }
    await Promise.all(work);
  }

  /** Lets the oldest idle indexes go (never `keep`) until `bytes` more fit the budget; whether they do. */
  private makeRoom(bytes: number, keep?: string): boolean {
    let held = this.held();
    if (held + bytes <= this.budget) return true;
    const idleBefore = Date.now() - (this.options.idleMs ?? IDLE_MS);
    for (const [k, s] of this.slots) {
      if (held + bytes <= this.budget) break;
      if (k === keep || s.building !== null || s.usedAt > idleBefore) continue;
      held -= s.ready?.held ?? 0;
      this.slots.delete(k);
    }
    return held + bytes <= this.budget;
  }

  private full(): AppError {
    const busy = [...this.slots.values()].filter((s) => s.ready !== null || s.building !== null);
    const building = busy.filter((s) => s.building !== null).length;
    return new AppError(
      'RATE_LIMITED',
      `The key indexes hold ${mb(this.held())} of their ${mb(this.budget)} memory budget (${busy.length} indexes, ${building} building, every one used in the last ` +
        `${Math.round((this.options.idleMs ?? IDLE_MS) / 1000)} s): a new one can start once one has been idle that long (the oldest idle one is then let go) or a build ends.`,
    );
  }

  private slot(key: string, where: IndexWhere): Slot {
    let s = this.slots.get(key);
    if (s === undefined) {
      this.slots.set(key, (s = { where, ready: null, building: null, usedAt: Date.now(), reader: null, rechecking: Promise.resolve() }));
      for (const [k, old] of this.slots) {
        if (this.slots.size <= MAX_INDEXES) break;
        if (old.building === null && k !== key) this.slots.delete(k);
      }
    }
    return s;
  }
}

/** An analyst builds only where no complete index exists and none is being built: refreshing one is for ops. */
function refuseAnalyst(slot: Slot, deep: boolean): void {
  if (slot.building !== null) {
    throw new AppError(
      'CONFLICT',
      'This index is being built now (its progress shows on the page): analysts use the shared index and cannot restart its build.',
    );
  }
  const ready = slot.ready;
  if (ready === null || !ready.state.complete) return;
  if (deep && !ready.state.deep) {
    throw new AppError(
      'FORBIDDEN',
      'This DB already has an index by this separator: analysts use it as it is; an ops user can rebuild it with the deep index.',
      'deep',
    );
  }
  const age = ready.state.finishedAt === null ? '' : ` (built ${ago(Date.now() - ready.state.finishedAt)} ago)`;
  throw new AppError('FORBIDDEN', `This DB already has an index by this separator${age}: analysts use the shared index; an ops user can refresh it.`);
}

function ago(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}

const mb = (n: number): string => `${Math.round(n / (1024 * 1024))} MB`;

function slotKey(w: IndexWhere): string {
  return `${w.target}\u0000${w.separator}`;
}
