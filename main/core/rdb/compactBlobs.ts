/**
 * The compact encodings Redis saves as one string (listpack, ziplist, zipmap, intset): their
 * element count from the header, and a walk over the entries where the header cannot tell
 * (a count field saturated at its maximum) or where the caller wants the largest element.
 * Pure functions over a byte range, so hand-built fixtures test them without a server.
 * Layouts from Redis's listpack.c, ziplist.c, zipmap.c and intset.c.
 */

export type BlobKind = 'listpack' | 'ziplist' | 'zipmap' | 'intset';

/** Bytes of header that hold the count (what must be decompressed to learn it). */
export const HEADER_BYTES: Record<BlobKind, number> = { listpack: 6, ziplist: 10, zipmap: 1, intset: 8 };

/** What a walk found; one shared object, so walking allocates nothing. */
export const walked = { count: 0, largest: 0 };

/** The count the header states, or -1 when it is saturated and only a walk can tell. */
export function headerCount(kind: BlobKind, b: Uint8Array, at: number): number {
  switch (kind) {
    case 'listpack': {
      const n = b[at + 4]! | (b[at + 5]! << 8);
      return n === 0xffff ? -1 : n;
    }
    case 'ziplist': {
      const n = b[at + 8]! | (b[at + 9]! << 8);
      return n === 0xffff ? -1 : n;
    }
    case 'zipmap': {
      const n = b[at]!;
      return n >= 254 ? -1 : n;
    }
    case 'intset':
      return (b[at + 4]! | (b[at + 5]! << 8) | (b[at + 6]! << 16) | (b[at + 7]! << 24)) >>> 0;
  }
}

/** Walk the entries in [at, end): fills `walked` and returns false when the bytes are not that encoding. */
export function walkBlob(kind: BlobKind, b: Uint8Array, at: number, end: number): boolean {
  switch (kind) {
    case 'listpack':
      return walkListpack(b, at, end);
    case 'ziplist':
      return walkZiplist(b, at, end);
    case 'zipmap':
      return walkZipmap(b, at, end);
    case 'intset': {
      const width = u32le(b, at);
      const count = headerCount('intset', b, at);
      if ((width !== 2 && width !== 4 && width !== 8) || at + 8 + width * count !== end) return false;
      walked.count = count;
      walked.largest = count > 0 ? width : 0;
      return true;
    }
  }
}

/**
 * listpack.c: <total-bytes u32><num-elements u16> entries <0xFF>; each entry is an encoding byte,
 * its data, then a backlen of 1 to 5 bytes (the entry's size without the backlen, 7 bits a byte).
 */
function walkListpack(b: Uint8Array, at: number, end: number): boolean {
  const total = u32le(b, at);
  if (total !== end - at || total < 7) return false;
  let p = at + 6;
  let count = 0;
  let largest = 0;
  for (;;) {
    if (p >= end) return false;
    const e = b[p]!;
    if (e === 0xff) break;
    let size: number; // encoding + data, without the backlen
    let data: number; // the element's own bytes, for the largest element
    if (e < 0x80) {
      size = 1; // 7-bit unsigned int
      data = 1;
    } else if (e < 0xc0) {
      data = e & 0x3f; // 6-bit string length
      size = 1 + data;
    } else if (e < 0xe0) {
      size = 2; // 13-bit int
      data = 2;
    } else if (e < 0xf0) {
      data = ((e & 0x0f) << 8) | b[p + 1]!; // 12-bit string length
      size = 2 + data;
    } else if (e === 0xf0) {
      data = u32le(b, p + 1);
      size = 5 + data;
    } else if (e === 0xf1) {
      size = 3;
      data = 2;
    } else if (e === 0xf2) {
      size = 4;
      data = 3;
    } else if (e === 0xf3) {
      size = 5;
      data = 4;
    } else if (e === 0xf4) {
      size = 9;
      data = 8;
    } else {
      return false;
    }
    const backlen = size < 128 ? 1 : size < 16384 ? 2 : size < 2097152 ? 3 : size < 268435456 ? 4 : 5;
    p += size + backlen;
    count++;
    if (data > largest) largest = data;
  }
  if (p + 1 !== end) return false;
  walked.count = count;
  walked.largest = largest;
  return true;
}

/**
 * ziplist.c: <zlbytes u32><zltail u32><zllen u16> entries <0xFF>; each entry is
 * <prevlen 1 or 5 bytes><encoding><data>.
 */
function walkZiplist(b: Uint8Array, at: number, end: number): boolean {
  const total = u32le(b, at);
  if (total !== end - at || total < 11) return false;
  let p = at + 10;
  let count = 0;
  let largest = 0;
  for (;;) {
    if (p >= end) return false;
    if (b[p] === 0xff) break;
    p += b[p] === 0xfe ? 5 : 1; // prevlen
    if (p >= end) return false;
    const e = b[p]!;
    let head: number;
    let data: number;
    switch (e >>> 6) {
      case 0:
        head = 1;
        data = e & 0x3f;
        break;
      case 1:
        head = 2;
        data = ((e & 0x3f) << 8) | b[p + 1]!;
        break;
      case 2:
        head = 5;
        data = ((b[p + 1]! << 24) | (b[p + 2]! << 16) | (b[p + 3]! << 8) | b[p + 4]!) >>> 0;
        break;
      default:
        head = 1;
        if (e === 0xc0) data = 2;
        else if (e === 0xd0) data = 4;
        else if (e === 0xe0) data = 8;
        else if (e === 0xf0) data = 3;
        else if (e === 0xfe) data = 1;
        else if (e >= 0xf1 && e <= 0xfd)
          data = 0; // 4-bit immediate 0..12
        else return false;
    }
    p += head + data;
    count++;
    if (data > largest) largest = data;
  }
  if (p + 1 !== end) return false;
  walked.count = count;
  walked.largest = largest;
  return true;
}

/**
 * zipmap.c (hashes before 2.6): <zmlen u8> then <len>key<len><free>value<free bytes> pairs, <0xFF>;
 * a <len> is one byte below 254, or 254 and a u32 (little-endian).
 * The count is of fields (pairs), as HLEN says.
 */
function walkZipmap(b: Uint8Array, at: number, end: number): boolean {
  let p = at + 1;
  let count = 0;
  let largest = 0;
  const readLen = (): number => {
    const first = b[p]!;
    if (first < 254) {
      p += 1;
      return first;
    }
    if (first === 254) {
      const n = u32le(b, p + 1);
      p += 5;
      return n;
    }
    return -1;
  };
  for (;;) {
    if (p >= end) return false;
    if (b[p] === 0xff) break;
    const klen = readLen();
    if (klen < 0) return false;
    p += klen;
    const vlen = readLen();
    if (vlen < 0 || p >= end) return false;
    const free = b[p]!;
    p += 1 + vlen + free;
    count++;
    largest = Math.max(largest, klen, vlen);
  }
  if (p + 1 !== end) return false;
  walked.count = count;
  walked.largest = largest;
  return true;
}

/** A little-endian u32 of a blob's header or entry. */
function u32le(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}
