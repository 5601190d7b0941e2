/**
 * CRC-64 as Redis's crc64.c computes it (the Jones polynomial, reflected, init 0, no final xor):
 * crc64(0, "123456789") = 0xe9c6d914c4b8d9ca. JavaScript has no fast 64-bit integers, so the
 * state is two 32-bit halves and the loop is slicing-by-8 (eight tables, eight bytes a step),
 * which keeps the checksum well above the parser's own rate.
 */

// Jones's polynomial 0xad93d23594c935a9, bit-reversed for the reflected (LSB-first) table: 0x95ac9329ac4bc9b5.
const POLY_LO = 0xac4bc9b5;
const POLY_HI = 0x95ac9329;

const TABLES = 8;
const lo = new Uint32Array(256 * TABLES);
const hi = new Uint32Array(256 * TABLES);

for (let i = 0; i < 256; i++) {
  let l = i;
  let h = 0;
  for (let bit = 0; bit < 8; bit++) {
    const carry = l & 1;
    l = ((l >>> 1) | (h << 31)) >>> 0;
    h = h >>> 1;
    if (carry) {
      l = (l ^ POLY_LO) >>> 0;
      h = (h ^ POLY_HI) >>> 0;
    }
  }
  lo[i] = l;
  hi[i] = h;
}
for (let t = 1; t < TABLES; t++) {
  for (let i = 0; i < 256; i++) {
    const pl = lo[(t - 1) * 256 + i]!;
    const ph = hi[(t - 1) * 256 + i]!;
    const idx = pl & 0xff;
    lo[t * 256 + i] = (lo[idx]! ^ ((pl >>> 8) | (ph << 24))) >>> 0;
    hi[t * 256 + i] = (hi[idx]! ^ (ph >>> 8)) >>> 0;
  }
}

/** Words are read through an Int32Array, whose byte order is the host's: the word loop needs a little-endian one. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A running CRC-64: feed it byte ranges in order, read `hex()` or compare with `equals()`. */
export class Crc64 {
  lo = 0;
  hi = 0;

  update(buf: Uint8Array, start = 0, end = buf.length): void {
    let l = this.lo;
    let h = this.hi;
    let i = start;
    // Bytes one at a time up to a 4-byte boundary, then whole words through an Int32Array view
    // (one load for four bytes: the byte loads were half the cost), then the tail again.
    const aligned = Math.min(end, i + ((4 - ((buf.byteOffset + i) & 3)) & 3));
    for (; i < aligned; i++) {
      const idx = (l ^ buf[i]!) & 0xff;
      l = lo[idx]! ^ ((l >>> 8) | (h << 24));
      h = hi[idx]! ^ (h >>> 8);
    }
    const words = LITTLE_ENDIAN ? (end - i) >>> 3 : 0;
    if (words > 0) {
      const view = new Int32Array(buf.buffer, buf.byteOffset + i, words * 2);
      for (let w = 0; w < view.length; w += 2) {
        l ^= view[w]!;
        h ^= view[w + 1]!;
        const nl =
          lo[1792 + (l & 0xff)]! ^
          lo[1536 + ((l >>> 8) & 0xff)]! ^
          lo[1280 + ((l >>> 16) & 0xff)]! ^
          lo[1024 + (l >>> 24)]! ^
          lo[768 + (h & 0xff)]! ^
          lo[512 + ((h >>> 8) & 0xff)]! ^
          lo[256 + ((h >>> 16) & 0xff)]! ^
          lo[h >>> 24]!;
        h =
          hi[1792 + (l & 0xff)]! ^
          hi[1536 + ((l >>> 8) & 0xff)]! ^
          hi[1280 + ((l >>> 16) & 0xff)]! ^
          hi[1024 + (l >>> 24)]! ^
          hi[768 + (h & 0xff)]! ^
          hi[512 + ((h >>> 8) & 0xff)]! ^
          hi[256 + ((h >>> 16) & 0xff)]! ^
          hi[h >>> 24]!;
        l = nl;
      }
      i += words * 8;
    }
    for (; i < end; i++) {
      const idx = (l ^ buf[i]!) & 0xff;
      l = lo[idx]! ^ ((l >>> 8) | (h << 24));
      h = hi[idx]! ^ (h >>> 8);
    }
    this.lo = l >>> 0;
    this.hi = h >>> 0;
  }

  /** Whether the 8 bytes at `at` (little-endian, as Redis writes them) are this CRC. */
  equals(buf: Uint8Array, at: number): boolean {
    const l = (buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16) | (buf[at + 3]! << 24)) >>> 0;
    const h = (buf[at + 4]! | (buf[at + 5]! << 8) | (buf[at + 6]! << 16) | (buf[at + 7]! << 24)) >>> 0;
    return l === this.lo && h === this.hi;
  }

  hex(): string {
    return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }
}
