import type { IndexState } from '../../../../app/schemas/keys';
import type { KeysIndexJobs } from '../indexJobs';
import type { RawTarget } from '../../resp/rawTarget';
import { buildIndex, DEFAULT_BUILD_TUNING, type BuildTuning, type DeepPass } from './buildIndex';
import { emptyState, KeyIndex } from './keyIndex';

/**
 * Default memory budget of one index (the counts are kept whatever it holds). Names cost ~37
 * bytes a key with their ~16 bytes of text: 512 MB holds the names of 10M such keys, so a
 * small folder of a 10M-key DB still opens from memory rather than by a whole-keyspace SCAN.
 */
export const DEFAULT_BUDGET_BYTES = 512 * 1024 * 1024;

interface Slot {
  /** The last build that finished (or the first one's partial result, cancelled or failed). */
  ready: KeyIndex | null;
  /** A build under way: serves until a ready one exists, else waits to replace it. */
  building: KeyIndex | null;
}

export interface IndexWhere {
  /** `profileId/db`: one index per DB of a profile, and per separator. */
  target: string;
  separator: string;
}

/**
 * The name indexes of this process, one per (profile, DB, separator). Refresh is start again:
 * the old index serves until the new one is done; a build started while one runs on the same
 * slot cancels that one.
 */
/** Indexes kept at once (each up to its budget): the least recently used idle one goes first. */
const MAX_INDEXES = 4;

export class IndexRegistry {
  /** In use order: the most recently used last. */
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly jobs: KeysIndexJobs,
    private readonly options: { budgetBytes?: number; tuning?: Partial<BuildTuning> } = {},
  ) {}

  /** `deep`: after the names, the deep pass (deepIndex.ts) probes every key for type, TTL and memory. */
  start(where: IndexWhere, targets: (connectionName: string) => RawTarget[], deep?: DeepPass): string {
    const key = slotKey(where);
    const running = this.jobs.runningOn(key);
    if (running !== undefined) this.jobs.cancel(running);
    const slot = this.slot(key);
    const tuning = { ...DEFAULT_BUILD_TUNING, ...this.options.tuning };
    return this.jobs.start(key, async (id, emit, signal) => {
      const index = new KeyIndex(Buffer.from(where.separator, 'utf8'), this.options.budgetBytes ?? DEFAULT_BUDGET_BYTES);
      index.state.jobId = id;
      slot.building = index;
      index.state.deep = deep !== undefined;
      const end = await buildIndex(targets(`cacheboard:keys:${id}`), index, emit, signal, tuning, deep);
      // Cancelled because a newer build took its place: that one serves next, not this.
      const superseded = slot.building !== index;
      if (!superseded) slot.building = null;
      // A refresh that did not finish leaves the last complete index serving.
      if (end.kind === 'done' || (!superseded && (slot.ready === null || !slot.ready.state.complete))) slot.ready = index;
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
    return slot.ready ?? slot.building;
  }

  state(where: IndexWhere): IndexState {
    return this.serving(where)?.snapshot() ?? emptyState(this.options.budgetBytes ?? DEFAULT_BUDGET_BYTES);
  }

  private slot(key: string): Slot {
    let s = this.slots.get(key);
    if (s === undefined) {
      this.slots.set(key, (s = { ready: null, building: null }));
      for (const [k, old] of this.slots) {
        if (this.slots.size <= MAX_INDEXES) break;
        if (old.building === null && k !== key) this.slots.delete(k);
      }
    }
    return s;
  }
}

function slotKey(w: IndexWhere): string {
  return `${w.target}\u0000${w.separator}`;
}
