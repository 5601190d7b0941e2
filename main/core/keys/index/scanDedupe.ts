import { KeyHashSet } from '../../resp/keyHashSet';
import { hashKey, lastHash } from '../../resp/keyHash';
import type { KeyIndex } from './keyIndex';

/**
 * Exact counts although SCAN may return a key twice (when the table is resized mid-scan), at
 * little cost per key. While the index keeps the names, each key's 64-bit hash is only appended
 * to a log (8 bytes a key, written in order: no cache miss per key, where a hash set lookup
 * misses on every key of a large DB); at the end the log is sorted once and the rare repeats are
 * taken out of the index by name. When the names go over budget the log is settled first, then
 * a hash set (~16 bytes a key) takes over for the rest of the scan.
 */
export class ScanDedupe {
  private log = new Uint32Array(2 * 65_536);
  private n = 0;
  private set: KeyHashSet | null = null;
  /** Repeats taken out so far. */
  removed = 0;

  constructor(private readonly index: KeyIndex) {}

  /** Count a key the scan returned, unless it was seen already (hash-set mode) or will be taken out (log mode). */
  add(buf: Buffer, start: number, end: number): void {
    if (this.set !== null) {
      if (this.set.add(buf, start, end)) this.index.add(buf, start, end);
      return;
    }
    hashKey(buf, start, end);
    if (2 * this.n === this.log.length) this.grow();
    this.log[2 * this.n] = lastHash.hi;
    this.log[2 * this.n + 1] = lastHash.lo;
    this.n++;
    this.index.add(buf, start, end);
    if (this.index.overBudget) this.toSet();
  }

  /** Take out every repeat logged so far (the end of the scan). */
  settle(): void {
    if (this.set !== null || this.n === 0) return;
    const view = new BigUint64Array(this.log.buffer, 0, this.n);
    const sorted = view.slice();
    sorted.sort();
    const repeated = new Set<bigint>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) repeated.add(sorted[i] as bigint);
    if (repeated.size === 0) return;
    // Log position i is name id i (both follow the order keys were added): keep the first of each.
    // (A key the store had no room for, past 4 GB of names, has no id: it is left as counted.)
    const named = Math.min(this.n, this.index.store?.size ?? 0);
    const kept = new Set<bigint>();
    for (let id = 0; id < named; id++) {
      const h = view[id] as bigint;
      if (!repeated.has(h)) continue;
      if (kept.has(h)) {
        this.index.remove(id);
        this.removed++;
      } else {
        kept.add(h);
      }
    }
  }

  /** Names over budget: settle with the names still there, then dedupe live for the rest. */
  private toSet(): void {
    this.settle();
    this.index.dropNames();
    const set = new KeyHashSet(Math.ceil(this.n / 0.5));
    // Sized once for the keys DBSIZE counted: growing step by step rehashes every key seen so
    // far at each step (~90 ms of a million-key walk that keeps no names, as the CLI's tree).
    set.reserve(this.index.state.total);
    for (let i = 0; i < this.n; i++) set.addHash(this.log[2 * i] as number, this.log[2 * i + 1] as number);
    this.set = set;
    this.log = new Uint32Array(0);
  }

  private grow(): void {
    const log = new Uint32Array(2 * Math.ceil(this.log.length * 0.75));
    log.set(this.log);
    this.log = log;
  }
}
