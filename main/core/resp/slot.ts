/** Redis Cluster has 16384 hash slots; a key's slot is CRC16(key) mod 16384. */
export const SLOTS = 16384;

/** CRC16-CCITT (XMODEM: polynomial 0x1021, initial 0), as in Redis's crc16.c. */
const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

export function crc16(buf: Uint8Array, start = 0, end = buf.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ (buf[i] as number)) & 0xff] as number);
  }
  return crc;
}

const OPEN = 0x7b; // '{'
const CLOSE = 0x7d; // '}'

/**
 * The slot of the key in buf[start, end), with Redis's hash-tag rule
 * (cluster.c keyHashSlot): if the key has a '{' and, after it, a '}' with at
 * least one byte between them, only those bytes are hashed. Only the first '{'
 * counts, so `foo{}{bar}` hashes whole (its first tag is empty) and
 * `foo{{bar}}zap` hashes `{bar`.
 */
export function keySlot(buf: Uint8Array, start = 0, end = buf.length): number {
  // Scanned by hand: indexOf would search past `end`, through the whole batch, for every key without a tag.
  for (let open = start; open < end; open++) {
    if (buf[open] !== OPEN) continue;
    for (let close = open + 1; close < end; close++) {
      if (buf[close] !== CLOSE) continue;
      if (close > open + 1) return crc16(buf, open + 1, close) & (SLOTS - 1);
      break;
    }
    break;
  }
  return crc16(buf, start, end) & (SLOTS - 1);
}

/** keySlot of a key given as text (UTF-8 bytes, as Redis sees them). */
export function slotOf(key: string | Uint8Array): number {
  return keySlot(typeof key === 'string' ? Buffer.from(key, 'utf8') : key);
}
