import { hashKey, insertHash, lastHash, slotOf } from './keyHash';

/** The table grows when it would pass this load factor (linear probing degrades past ~0.7). */
const MAX_LOAD = 0.7;
/** After growing, the table is half full: 8 bytes a slot, so at most ~16 bytes a key in steady state. */
const LOAD_AFTER_GROW = 0.5;
const INITIAL_SLOTS = 1024;

/**
 * The keys seen so far, answering at once whether a key is new: a census uses
 * it to skip a key SCAN returned twice. Keys are not kept: each one is its
 * 64-bit hash (keyHash.ts), held in an open-addressing set (one Uint32Array,
 * a slot's hi and lo halves side by side so a lookup misses the CPU cache
 * once, not twice; 0/0 marks an empty slot). 8 bytes a slot, 11-16 bytes a
 * key. A bulk load only needs the count at the end, and counts far more keys:
 * it uses DistinctKeyTracker (keyTracker.ts), which keeps ~8 MB in memory.
 */
export class KeyHashSet {
  /** Slot i is table[2i] (hi half) and table[2i + 1] (lo half). */
  private table: Uint32Array;
  private size = 0;

  constructor(initialSlots = INITIAL_SLOTS) {
    this.table = new Uint32Array(2 * Math.max(16, Math.ceil(initialSlots)));
  }

  /** Distinct keys added so far. */
  get count(): number {
    return this.size;
  }

  /** Slots allocated; memory is 8 bytes a slot. */
  get capacity(): number {
    return this.table.length / 2;
  }

  /** Make room for `keys` distinct keys at once, so the table is not rehashed again and again as it fills. */
  reserve(keys: number): void {
    if (!Number.isFinite(keys) || keys <= this.size) return;
    const slots = Math.ceil(keys / LOAD_AFTER_GROW);
    if (slots > this.capacity) this.grow(slots);
  }

  /** Whether the key is new. */
  add(buf: Uint8Array, start: number, end: number): boolean {
    hashKey(buf, start, end);
    return this.insert(lastHash.hi, lastHash.lo);
  }

  /** Whether a key already hashed (keyHash.ts' hi and lo halves) is new. */
  addHash(hi: number, lo: number): boolean {
    return this.insert(hi, lo);
  }

  private insert(hi: number, lo: number): boolean {
    if (this.size + 1 > this.capacity * MAX_LOAD) this.grow();
    const slots = this.table.length / 2;
    if (!insertHash(this.table, slots, slotOf(hi, lo, slots), hi, lo)) return false;
    this.size++;
    return true;
  }

  private grow(slots = Math.ceil((this.size + 1) / LOAD_AFTER_GROW)): void {
    const old = this.table;
    const table = new Uint32Array(2 * slots);
    for (let j = 0; j < old.length; j += 2) {
      const hi = old[j] as number;
      const lo = old[j + 1] as number;
      if (hi !== 0 || lo !== 0) insertHash(table, slots, slotOf(hi, lo, slots), hi, lo);
    }
    this.table = table;
  }
}
