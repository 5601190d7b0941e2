import type { KeyTracker } from './types';

/** The table grows when it would pass this load factor (linear probing degrades past ~0.7). */
const MAX_LOAD = 0.7;
/** After growing, the table is half full: 8 bytes a slot, so at most ~16 bytes a key in steady state. */
const LOAD_AFTER_GROW = 0.5;
const INITIAL_SLOTS = 1024;
const TWO_POW_32 = 4_294_967_296;

/**
 * Exact count of distinct keys, for swap mode's check "DBSIZE of staging ==
 * distinct keys written". Keys are not kept: each one is reduced to a 64-bit
 * FNV-1a hash of its bytes, held in an open-addressing set (one Uint32Array,
 * a slot's hi and lo halves side by side so a lookup misses the CPU cache
 * once, not twice: at a million keys that miss is most of an insert's cost;
 * 0/0 marks an empty slot). Two distinct keys share a 64-bit
 * hash with probability ~n²/2⁶⁵ (about 3 in a million for 10 million keys),
 * which would undercount by one: far rarer than the legitimate mismatch
 * sources (TTLs expiring during the load).
 *
 * A load that deletes or renames keys makes "distinct keys written" unrelated
 * to DBSIZE; the source then calls untrackable() and the set is dropped.
 */
export class DistinctKeyTracker implements KeyTracker {
  /** Slot i is table[2i] (hi half) and table[2i + 1] (lo half). */
  private table: Uint32Array;
  private size = 0;
  private firstUntrackable: string | undefined;

  constructor(initialSlots = INITIAL_SLOTS) {
    this.table = new Uint32Array(2 * Math.max(16, Math.ceil(initialSlots)));
  }

  /** Distinct keys added so far (meaningless once untrackable). */
  get count(): number {
    return this.size;
  }

  get trackable(): boolean {
    return this.firstUntrackable === undefined;
  }

  /** The first command that made the count unusable, e.g. "DEL". */
  get untrackedBy(): string | undefined {
    return this.firstUntrackable;
  }

  /** Slots allocated; memory is 8 bytes a slot. */
  get capacity(): number {
    return this.table.length / 2;
  }

  untrackable(command: string): void {
    if (this.firstUntrackable !== undefined) return;
    this.firstUntrackable = command;
    // Nothing will read the set again: free it now rather than at the end of a long load.
    this.table = new Uint32Array(0);
  }

  /**
   * Make room for `keys` distinct keys at once (a load's estimate from its first batch),
   * so the table is not rehashed again and again as it fills: at a million keys the
   * step-by-step growth costs ~60 ms and, while it copies, two tables' memory.
   */
  reserve(keys: number): void {
    if (this.firstUntrackable !== undefined || !Number.isFinite(keys) || keys <= this.size) return;
    const slots = Math.ceil(keys / LOAD_AFTER_GROW);
    if (slots > this.capacity) this.grow(slots);
  }

  /** Whether the key is new (false once untrackable): a census uses it to skip keys SCAN returned twice. */
  add(buf: Buffer, start: number, end: number): boolean {
    if (this.firstUntrackable !== undefined) return false;
    fnv1a64Halves(buf, start, end);
    // 0/0 is the empty marker; a key hashing to it is stored as 0/1.
    return this.insert(hashHi, hashHi === 0 && hashLo === 0 ? 1 : hashLo);
  }

  private insert(hi: number, lo: number): boolean {
    if (this.size + 1 > this.capacity * MAX_LOAD) this.grow();
    const table = this.table;
    const slots = table.length / 2;
    let i = slotOf(hi, lo, slots);
    for (;;) {
      const h = table[2 * i] as number;
      const l = table[2 * i + 1] as number;
      if (h === 0 && l === 0) {
        table[2 * i] = hi;
        table[2 * i + 1] = lo;
        this.size++;
        return true;
      }
      if (h === hi && l === lo) return false;
      if (++i === slots) i = 0;
    }
  }

  private grow(slots = Math.ceil((this.size + 1) / LOAD_AFTER_GROW)): void {
    const old = this.table;
    const table = new Uint32Array(2 * slots);
    for (let j = 0; j < old.length; j += 2) {
      const hi = old[j] as number;
      const lo = old[j + 1] as number;
      if (hi === 0 && lo === 0) continue;
      let i = slotOf(hi, lo, slots);
      while ((table[2 * i] as number) !== 0 || (table[2 * i + 1] as number) !== 0) if (++i === slots) i = 0;
      table[2 * i] = hi;
      table[2 * i + 1] = lo;
    }
    this.table = table;
  }
}

/**
 * Home slot of a hash. FNV's low bits are weak (bit 0 is the parity of the
 * bytes' low bits), so both halves are mixed (murmur3's finaliser) and the
 * result scaled to the table size, which need not be a power of two.
 */
function slotOf(hi: number, lo: number, slots: number): number {
  let h = (hi ^ Math.imul(lo, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return Math.floor(((h >>> 0) / TWO_POW_32) * slots);
}

// The last hash, as two halves: returning them in an object would allocate once a key.
let hashHi = 0;
let hashLo = 0;

/**
 * FNV-1a 64 over buf[start, end) in two 32-bit halves: multiplying by the
 * prime 2^40 + 0x1b3 is lo*0x1b3 (< 2^41, exact in a double) with its carry,
 * plus hi*0x1b3, plus lo's low 24 bits shifted into hi. No BigInt, no string.
 */
function fnv1a64Halves(buf: Buffer, start: number, end: number): void {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = start; i < end; i++) {
    lo = (lo ^ (buf[i] as number)) >>> 0;
    const l = lo * 0x1b3;
    const nlo = l >>> 0;
    hi = (hi * 0x1b3 + (l - nlo) / TWO_POW_32 + ((lo << 8) >>> 0)) >>> 0;
    lo = nlo;
  }
  hashHi = hi;
  hashLo = lo;
}

/** The hash add() uses, as one BigInt: for tests against reference vectors. */
export function fnv1a64(buf: Buffer, start = 0, end = buf.length): bigint {
  fnv1a64Halves(buf, start, end);
  return (BigInt(hashHi) << 32n) | BigInt(hashLo);
}
