import type { IndexState } from '../../../../app/schemas/keys';
import type { DeepColumns } from './deepColumns';
import { FolderCache, SEGMENT_HASH_SEED, segmentHashStep } from './folderCache';
import { NameStore } from './nameStore';

/** Bytes one folder costs in the heap, roughly: the object, its Map entry in its parent, the segment string. */
const FOLDER_BYTES = 160;
/** Bytes one key id costs in its folder's array of leaves (a small integer slot, with growth slack). */
const LEAF_BYTES = 10;
/** What an index asks its ledger for at a time, past what it holds: one ask per few hundred thousand keys. */
const GRANT_STEP = 16 * 1024 * 1024;

/**
 * The memory budget every index of the process shares (indexRegistry.ts): an index asks it for
 * room as it grows, and is refused once every index together would pass the budget.
 */
export interface IndexLedger {
  grant(index: KeyIndex, bytes: number): boolean;
}

/** One folder of the tree: its count (every key under it) and what sits directly in it. */
export class Folder {
  /** Keys under this folder, at any depth. */
  count = 0;
  /** Keys that end at this level (no separator after this folder's prefix). */
  leafCount = 0;
  /** Sub-folders by their segment (the bytes as latin1 text: one char a byte, lossless). */
  children: Map<string, Folder> | null = null;
  /** Ids (in the name store) of the keys that end here; null once the names went over budget. */
  leaves: number[] | null = null;
  leavesSorted = true;
  /** Keys under this folder in sub-folders first seen after the folders' budget ran out (not listed). */
  unlisted = 0;
  /** Their ids, so a glob still finds them. */
  deeper: number[] | null = null;
}

/**
 * The namespace tree of one DB by one separator: a count per folder for every key, always,
 * and (within a budget) every name, so a folder opens and a glob with a literal prefix lists
 * without walking the keyspace again. Past the budget the names are let go (`names` says
 * 'over-budget'); the counts stay.
 */
export class KeyIndex {
  readonly root = new Folder();
  private names: NameStore | null = new NameStore();
  private folders = 0;
  private folderBytes = 0;
  private leafBytes = 0;
  readonly state: IndexState;
  /** Type, TTL and memory per key id, once a deep pass finished (deepIndex.ts). */
  deep: DeepColumns | null = null;
  /** The folders the walk went through lately, by their segment's bytes (add). */
  private readonly cache = new FolderCache<Folder>();
  /** The separator as latin1 text, to cut latin1 names with. */
  private readonly sepText: string;
  /** Bytes the ledger granted this index (all it may hold before asking again); no ledger: no limit but its own budget. */
  private allowance: number;
  /** The deep columns' bytes, reserved before the deep pass makes them. */
  private deepBytes = 0;
  /** Bumped whenever keys are taken out after the build: what was cached from the names (sorted matches) is stale. */
  changes = 0;

  constructor(
    readonly separator: Buffer,
    /** The most this one index may hold. */
    readonly budgetBytes: number,
    /** What the folders may take (the counts); half the budget unless said. */
    readonly folderBudgetBytes = budgetBytes / 2,
    /** The budget shared with every other index, asked as this one grows. */
    private readonly ledger?: IndexLedger,
  ) {
    this.sepText = separator.toString('latin1');
    this.state = { ...emptyState(budgetBytes), status: 'building', startedAt: Date.now() };
    this.allowance = ledger === undefined ? Number.POSITIVE_INFINITY : 0;
  }

  /** What the ledger granted so far. */
  get allowed(): number {
    return this.allowance;
  }

  /** What this index counts against the shared budget: what it was granted (its bytes, once settled). */
  get held(): number {
    return Number.isFinite(this.allowance) ? Math.max(this.allowance, this.bytes) : this.bytes;
  }

  /** Give back what was granted beyond the bytes held (the build ended, or the names went). */
  settle(): void {
    if (this.ledger !== undefined) this.allowance = this.bytes;
  }

  /**
   * Whether `extra` more bytes fit: within the allowance, or the ledger grants more (a step at a
   * time). A refusal is remembered for a second (for as much or more), so a build past the budget does not ask per key.
   */
  private room(extra: number): boolean {
    const need = this.bytes + extra;
    if (need <= this.allowance) return true;
    const ask = need - this.allowance + Math.min(GRANT_STEP, this.budgetBytes / 16);
    if (this.ledger === undefined || (ask >= this.refused.ask && this.refused.until > Date.now())) return false;
    if (!this.ledger.grant(this, ask)) {
      this.refused = { ask, until: Date.now() + 1000 };
      return false;
    }
    this.allowance += ask;
    return true;
  }
  private refused = { ask: 0, until: 0 };

  /** Marks the names to go (true), or false when they went already. */
  private shedNames(): boolean {
    if (this.names === null) return false;
    this.overBudget = true;
    return true;
  }

  /** Room for the deep columns (deepIndex.ts) before they are made; false when the shared budget has none. */
  reserveDeep(bytes: number): boolean {
    if (this.bytes + bytes > this.budgetBytes || !this.room(bytes)) return false;
    this.deepBytes += bytes;
    return true;
  }

  /** The name store, while the names are within budget. */
  get store(): NameStore | null {
    return this.names;
  }

  get bytes(): number {
    return this.folderBytes + this.leafBytes + (this.names?.bytes ?? 0) + this.deepBytes;
  }

  /** The state with its byte count and time brought up to date. */
  snapshot(): IndexState {
    this.state.bytes = this.bytes;
    if (this.state.startedAt !== null && this.state.status === 'building') this.state.seconds = (Date.now() - this.state.startedAt) / 1000;
    return { ...this.state };
  }

  /** Count one key (seen once: the scan dedupes) in every folder on its path, and keep its name. */
  add(key: Buffer, start = 0, end = key.length): void {
    // The name's bytes are read in place: a segment's folder comes from the cache (folderCache.ts)
    // by the segment's bytes, and only a miss makes a latin1 string of it (one char a byte).
    const sep = this.separator;
    const sepLength = sep.length;
    const first = sep[0] as number;
    let node = this.root;
    node.count++;
    let from = start;
    let deeper = false;
    for (;;) {
      // The separator's next place in the name, and the hash of the segment before it on the way.
      let hash = SEGMENT_HASH_SEED;
      let at = -1;
      for (let i = from; i + sepLength <= end; i++) {
        const b = key[i] as number;
        if (b === first && (sepLength === 1 || startsAt(key, i, sep))) {
          at = i;
          break;
        }
        hash = segmentHashStep(hash, b);
      }
      if (at < 0) break;
      let child = this.cache.find(node, hash, key, from, at);
      if (child === undefined) {
        const seg = key.toString('latin1', from, at);
        child = node.children?.get(seg);
        if (child === undefined) {
          // Folders take at most half the budget: a keyspace of unique ids (`session:<uuid>:data`)
          // would otherwise grow a folder a key. Past it, new folders are not made: the key counts
          // in every folder above, which stay exact, and its own folder is not listed.
          // Past the shared budget while the names are held, the names go (the scan drops them
          // next: ScanDedupe), not the counts: the folder is made.
          if (this.folderBytes >= this.folderBudgetBytes || !(this.room(FOLDER_BYTES + seg.length * 2) || this.shedNames())) {
            this.state.foldersCapped = true;
            deeper = true;
            break;
          }
          child = new Folder();
          if (this.names !== null) child.leaves = [];
          (node.children ??= new Map()).set(seg, child);
          this.folders++;
          this.folderBytes += FOLDER_BYTES + seg.length * 2;
        }
        this.cache.remember(node, hash, seg, child);
      }
      child.count++;
      node = child;
      from = at + sepLength;
    }
    if (deeper) node.unlisted++;
    else node.leafCount++;
    this.state.scanned++;
    if (this.names === null) return;
    if (!this.names.fits(end - start)) {
      this.overBudget = true;
      return;
    }
    const id = this.names.add(key, start, end);
    if (deeper) {
      (node.deeper ??= []).push(id);
    } else {
      (node.leaves ??= []).push(id);
      node.leavesSorted = false;
    }
    this.leafBytes += LEAF_BYTES;
    if (this.bytes > this.budgetBytes || !this.room(0)) this.overBudget = true;
  }

  /**
   * Take key `id` out again (SCAN returned it twice: scanDedupe.ts): out of every count on its
   * path and out of its folder's list. Its bytes stay in the store, unreachable.
   */
  remove(id: number): void {
    const store = this.names;
    if (store === null) return;
    const text = store.name(id).toString('latin1');
    let node = this.root;
    node.count--;
    let from = 0;
    let deeper = false;
    for (;;) {
      const at = text.indexOf(this.sepText, from);
      if (at < 0) break;
      const child = node.children?.get(text.slice(from, at));
      if (child === undefined) {
        deeper = true;
        break;
      }
      child.count--;
      node = child;
      from = at + this.sepText.length;
    }
    const list = deeper ? node.deeper : node.leaves;
    const at = list?.lastIndexOf(id) ?? -1;
    if (list !== null && at >= 0) list.splice(at, 1);
    if (deeper) node.unlisted--;
    else node.leafCount--;
    this.state.scanned--;
  }

  /** The folder whose prefix is `prefix` (which ends with the separator, or is empty for the root). */
  folder(prefix: Buffer): Folder | undefined {
    let node: Folder | undefined = this.root;
    let from = 0;
    while (node !== undefined && from < prefix.length) {
      const at = prefix.indexOf(this.separator, from);
      if (at < 0) return undefined;
      node = node.children?.get(prefix.toString('latin1', from, at));
      from = at + this.separator.length;
    }
    return node;
  }

  /**
   * The deepest folder whose prefix starts `bytes`, and that prefix's length: every name
   * starting with `bytes` lies under it.
   */
  deepest(bytes: Buffer): { folder: Folder; depth: number } {
    let node = this.root;
    let from = 0;
    for (;;) {
      const at = bytes.indexOf(this.separator, from);
      if (at < 0) return { folder: node, depth: from };
      const child = node.children?.get(bytes.toString('latin1', from, at));
      if (child === undefined) return { folder: node, depth: from };
      node = child;
      from = at + this.separator.length;
    }
  }

  /** The ids of the keys directly in `folder`, sorted by name (sorted once, then kept). */
  sortedLeaves(folder: Folder): number[] {
    const names = this.names;
    if (names === null || folder.leaves === null) return [];
    if (!folder.leavesSorted) {
      folder.leaves = sortByName(names, folder.leaves);
      folder.leavesSorted = true;
    }
    return folder.leaves;
  }

  /** Every key id under `folder` at any depth, skipping sub-folders `enter` refuses (by segment). */
  *idsUnder(folder: Folder, enter: (segment: string) => boolean = () => true): Generator<number> {
    if (folder.leaves !== null) yield* folder.leaves;
    if (folder.deeper !== null) yield* folder.deeper;
    if (folder.children === null) return;
    for (const [seg, child] of folder.children) if (enter(seg)) yield* this.idsUnder(child);
  }

  /** The names passed the budget: the scan lets them go (dropNames) once it has settled its repeats. */
  overBudget = false;

  /** Let the names go (over budget); the counts stay. */
  dropNames(): void {
    this.names?.drop();
    this.names = null;
    this.leafBytes = 0;
    this.deep = null;
    this.deepBytes = 0;
    this.state.names = 'over-budget';
    const clear = (f: Folder): void => {
      f.leaves = null;
      f.deeper = null;
      if (f.children !== null) for (const c of f.children.values()) clear(c);
    };
    clear(this.root);
    this.settle();
  }

  /**
   * Take keys out after the build (a bulk delete removed them): out of every count on their
   * paths and out of their folders' lists, one pass per folder; a folder left empty goes.
   */
  removeMany(ids: readonly number[]): void {
    const store = this.names;
    if (store === null || ids.length === 0) return;
    // Per folder: the ids gone from its leaves, and from its keys past the folders' cap (`deeper`).
    const touched = new Map<Folder, { gone: Set<number>; leaves: number; deeper: number }>();
    for (const id of ids) {
      const text = store.name(id).toString('latin1');
      const path: [Folder, string][] = [];
      let node = this.root;
      let from = 0;
      let deeper = false;
      for (;;) {
        const at = text.indexOf(this.sepText, from);
        if (at < 0) break;
        const seg = text.slice(from, at);
        const child = node.children?.get(seg);
        if (child === undefined) {
          deeper = true;
          break;
        }
        path.push([node, seg]);
        node = child;
        from = at + this.sepText.length;
      }
      let t = touched.get(node);
      if (t === undefined) touched.set(node, (t = { gone: new Set(), leaves: 0, deeper: 0 }));
      t.gone.add(id);
      if (deeper) t.deeper++;
      else t.leaves++;
      this.root.count--;
      for (const [parent, seg] of path) {
        const child = parent.children?.get(seg) as Folder;
        if (--child.count > 0) continue;
        parent.children?.delete(seg);
        this.cache.clear();
        this.folders--;
        this.folderBytes -= FOLDER_BYTES + seg.length * 2;
      }
    }
    for (const [folder, t] of touched) {
      if (folder.leaves !== null) folder.leaves = folder.leaves.filter((id) => !t.gone.has(id));
      if (folder.deeper !== null) folder.deeper = folder.deeper.filter((id) => !t.gone.has(id));
      folder.leafCount -= t.leaves;
      folder.unlisted -= t.deeper;
    }
    this.leafBytes -= ids.length * LEAF_BYTES;
    this.state.scanned -= ids.length;
    this.changes++;
  }

  /** Folders in the tree (for the bench's memory figures). */
  get folderCount(): number {
    return this.folders;
  }
}

/**
 * Ids in byte order of their names. Latin1 text compares char by char as the bytes do, and a
 * string sort is several times faster than Buffer.compare called from a comparator.
 */
export function sortByName(names: NameStore, ids: readonly number[]): number[] {
  const rows = ids.map((id) => ({ id, s: names.name(id).toString('latin1') }));
  rows.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
  return rows.map((r) => r.id);
}

/** The state of an index that holds nothing yet (status 'none': no build has run). */
export function emptyState(budgetBytes: number): IndexState {
  return {
    status: 'none',
    jobId: null,
    scanned: 0,
    total: 0,
    complete: false,
    names: 'indexed',
    bytes: 0,
    budgetBytes,
    deep: false,
    deepDone: 0,
    startedAt: null,
    finishedAt: null,
    seconds: 0,
    error: null,
    stale: null,
    rechecking: false,
    maxAgeMs: DEFAULT_MAX_AGE_MS,
    expired: false,
    followed: 0,
    scanCount: null,
  };
}

/** How long a kept index is reused before opening the Keys page scans again (15 min; `serve --index-max-age`). */
export const DEFAULT_MAX_AGE_MS = 15 * 60_000;

/** Whether buf[at…] starts with `sep` (the caller bounds `at` so all of it fits). */
function startsAt(buf: Buffer, at: number, sep: Buffer): boolean {
  for (let j = 1; j < sep.length; j++) if (buf[at + j] !== sep[j]) return false;
  return true;
}
