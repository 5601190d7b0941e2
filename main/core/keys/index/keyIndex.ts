import type { IndexState } from '../../../../app/schemas/keys';
import type { DeepColumns } from './deepColumns';
import { NameStore } from './nameStore';

/** Bytes one folder costs in the heap, roughly: the object, its Map entry in its parent, the segment string. */
const FOLDER_BYTES = 160;
/** Bytes one key id costs in its folder's array of leaves (a small integer slot, with growth slack). */
const LEAF_BYTES = 10;

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
  /** The separator as latin1 text, to cut latin1 names with. */
  private readonly sepText: string;

  constructor(
    readonly separator: Buffer,
    readonly budgetBytes: number,
    /** What the folders may take (the counts); half the budget unless said. */
    readonly folderBudgetBytes = budgetBytes / 2,
  ) {
    this.sepText = separator.toString('latin1');
    this.state = { ...emptyState(budgetBytes), status: 'building', startedAt: Date.now() };
  }

  /** The name store, while the names are within budget. */
  get store(): NameStore | null {
    return this.names;
  }

  get bytes(): number {
    return this.folderBytes + this.leafBytes + (this.names?.bytes ?? 0);
  }

  /** The state with its byte count and time brought up to date. */
  snapshot(): IndexState {
    this.state.bytes = this.bytes;
    if (this.state.startedAt !== null && this.state.status === 'building') this.state.seconds = (Date.now() - this.state.startedAt) / 1000;
    return { ...this.state };
  }

  /** Count one key (seen once: the scan dedupes) in every folder on its path, and keep its name. */
  add(key: Buffer, start = 0, end = key.length): void {
    // One latin1 string of the whole name (one char a byte), cut into segments: cheaper than a
    // Buffer-to-string conversion per segment.
    const text = key.toString('latin1', start, end);
    const sep = this.sepText;
    let node = this.root;
    node.count++;
    let from = 0;
    let deeper = false;
    for (;;) {
      const at = text.indexOf(sep, from);
      if (at < 0) break;
      const seg = text.slice(from, at);
      let child = node.children?.get(seg);
      if (child === undefined) {
        // Folders take at most half the budget: a keyspace of unique ids (`session:<uuid>:data`)
        // would otherwise grow a folder a key. Past it, new folders are not made: the key counts
        // in every folder above, which stay exact, and its own folder is not listed.
        if (this.folderBytes >= this.folderBudgetBytes) {
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
      child.count++;
      node = child;
      from = at + sep.length;
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
    if (this.bytes > this.budgetBytes) this.overBudget = true;
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
    this.state.names = 'over-budget';
    const clear = (f: Folder): void => {
      f.leaves = null;
      f.deeper = null;
      if (f.children !== null) for (const c of f.children.values()) clear(c);
    };
    clear(this.root);
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
    seconds: 0,
    error: null,
  };
}
