/** Entries of the cache: a power of two. A namespace's folders near the top (the ones most keys pass through) fit in it. */
const SLOTS = 4096;

/**
 * The folders a walk went through lately, found by the bytes of a name's segment without
 * making a string of it. A million-key walk that cut every name into latin1 strings to look
 * its folders up by text spent ~150 ns a key on it, about as much as Redis spends serving it.
 * Direct-mapped by the segment's hash: fixed memory, an entry simply replaced on a collision;
 * every hit is checked byte for byte against the segment, so a miss only costs the slow path.
 */
export class FolderCache<F extends object> {
  private readonly parents: (F | undefined)[] = new Array<F | undefined>(SLOTS).fill(undefined);
  private readonly hashes = new Int32Array(SLOTS);
  private readonly segments: string[] = new Array<string>(SLOTS).fill('');
  private readonly children: (F | undefined)[] = new Array<F | undefined>(SLOTS).fill(undefined);

  /** The child of `parent` whose segment is buf[start, end) (hashed to `hash` by segmentHash), if cached. */
  find(parent: F, hash: number, buf: Uint8Array, start: number, end: number): F | undefined {
    const i = slot(hash);
    if (this.parents[i] !== parent || this.hashes[i] !== hash) return undefined;
    const seg = this.segments[i] as string;
    if (seg.length !== end - start) return undefined;
    for (let j = 0; j < seg.length; j++) if (seg.charCodeAt(j) !== buf[start + j]) return undefined;
    return this.children[i];
  }

  remember(parent: F, hash: number, segment: string, child: F): void {
    const i = slot(hash);
    this.parents[i] = parent;
    this.hashes[i] = hash;
    this.segments[i] = segment;
    this.children[i] = child;
  }

  /** Forget every entry: a folder was taken out of the tree, and a cached one may be it. */
  clear(): void {
    this.parents.fill(undefined);
    this.children.fill(undefined);
  }
}

/** FNV's low bits are its weakest: the high ones are folded in before they pick the entry. */
const slot = (hash: number): number => (hash ^ (hash >>> 16)) & (SLOTS - 1);

/** FNV-1a 32 of one more byte, for a segment's hash as a walk reads it (start with SEGMENT_HASH_SEED). */
export const SEGMENT_HASH_SEED = 0x811c9dc5 | 0;
export function segmentHashStep(h: number, byte: number): number {
  return Math.imul(h ^ byte, 0x01000193);
}
