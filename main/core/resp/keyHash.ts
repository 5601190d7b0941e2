/**
 * A key's identity for counting: its 64-bit FNV-1a hash, computed over a byte
 * range of a shared buffer without a string, a BigInt or an allocation. Two
 * distinct keys share a 64-bit hash with probability ~n²/2⁶⁵ over n keys
 * (about 1 in 125,000 for 17.2 million keys); every count built on it is exact
 * but for that.
 */

const TWO_POW_32 = 4_294_967_296;

/** The last hash, as two halves: returning them in an object would allocate once a key. */
export const lastHash = { hi: 0, lo: 0 };

/**
 * FNV-1a 64 over buf[start, end) into lastHash: multiplying by the prime
 * 2^40 + 0x1b3 is lo*0x1b3 (< 2^41, exact in a double) with its carry, plus
 * hi*0x1b3, plus lo's low 24 bits shifted into hi.
 */
export function hashKey(buf: Uint8Array, start: number, end: number): void {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = start; i < end; i++) {
    lo = (lo ^ (buf[i] as number)) >>> 0;
    const l = lo * 0x1b3;
    const nlo = l >>> 0;
    hi = (hi * 0x1b3 + (l - nlo) / TWO_POW_32 + ((lo << 8) >>> 0)) >>> 0;
    lo = nlo;
  }
  lastHash.hi = hi;
  // 0/0 marks an empty slot in the tables that hold hashes; a key hashing to it is stored as 0/1.
  lastHash.lo = hi === 0 && lo === 0 ? 1 : lo;
}

/**
 * 32 well-mixed bits of a hash. FNV's low bits are weak (bit 0 is the parity
 * of the bytes' low bits), so both halves are mixed with murmur3's finaliser:
 * its top bits pick a partition, its low bits a slot.
 */
export function mix(hi: number, lo: number): number {
  let h = (hi ^ Math.imul(lo, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Puts a hash into an open-addressing table of `slots` slots (slot i is
 * table[2i] hi, table[2i + 1] lo; 0/0 is empty), probing linearly from slot
 * `home`; returns whether it was not there yet. The table must have a free slot.
 */
export function insertHash(table: Uint32Array, slots: number, home: number, hi: number, lo: number): boolean {
  let i = home;
  for (;;) {
    const h = table[2 * i] as number;
    const l = table[2 * i + 1] as number;
    if (h === 0 && l === 0) {
      table[2 * i] = hi;
      table[2 * i + 1] = lo;
      return true;
    }
    if (h === hi && l === lo) return false;
    if (++i === slots) i = 0;
  }
}

/** A hash's home among `slots` (any size, not only a power of two). */
export function slotOf(hi: number, lo: number, slots: number): number {
  return Math.floor((mix(hi, lo) / TWO_POW_32) * slots);
}

/** The hash hashKey() computes (a hash of 0 kept as 1), as one BigInt: for tests against reference vectors. */
export function fnv1a64(buf: Uint8Array, start = 0, end = buf.length): bigint {
  hashKey(buf, start, end);
  return (BigInt(lastHash.hi) << 32n) | BigInt(lastHash.lo);
}
