import type { Row } from './row';
import { invalidUtf8At } from './utf8';

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const OPEN = 123;
const CLOSE = 125;
const MINUS = 45;
/** Integers of up to 15 digits print back exactly as written (below 2^53). */
const MAX_DIGITS = 15;

function isWs(c: number | undefined): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10;
}

/**
 * The common ndjson line — a flat object of plain strings, integers and
 * booleans — read straight from the bytes: no decode to a string, no
 * JSON.parse, no re-encode of the values. Column i of `row` gets the value
 * of the key equal to names[i].
 *
 * Returns false for anything it does not handle exactly like JSON.parse
 * followed by String(value): escapes, non-integer or long numbers, null,
 * nested values, malformed UTF-8, a missing or repeated field, or malformed
 * JSON. The caller then takes the JSON.parse path, which also words the errors
 * (and refuses malformed UTF-8 and repeated fields).
 */
export function readFlatObject(buf: Buffer, start: number, end: number, names: Buffer[], row: Row): boolean {
  const found = names.length;
  let seen = 0; // bit i: names[i] found; callers pass at most FLAT_MAX_FIELDS names
  let p = start;
  let high = false;
  while (p < end && isWs(buf[p])) p++;
  if (buf[p] !== OPEN) return false;
  p++;
  while (p < end && isWs(buf[p])) p++;
  if (buf[p] === CLOSE) {
    p++;
  } else {
    for (;;) {
      if (buf[p] !== QUOTE) return false;
      const keyStart = p + 1;
      let q = keyStart;
      q = stringEnd(buf, q, end);
      if (q < 0) return false;
      if (q >= HIGH) {
        high = true;
        q -= HIGH;
      }
      if (q >= end) return false;
      const keyEnd = q;
      p = q + 1;
      while (p < end && isWs(buf[p])) p++;
      if (buf[p] !== COLON) return false;
      p++;
      while (p < end && isWs(buf[p])) p++;
      let vs = p;
      let ve: number;
      const c0 = buf[p];
      if (c0 === QUOTE) {
        vs = p + 1;
        q = vs;
        q = stringEnd(buf, q, end);
        if (q < 0) return false;
        if (q >= HIGH) {
          high = true;
          q -= HIGH;
        }
        if (q >= end) return false;
        ve = q;
        p = q + 1;
      } else if (c0 === MINUS || (c0 !== undefined && c0 >= 48 && c0 <= 57)) {
        q = c0 === MINUS ? p + 1 : p;
        const digitsFrom = q;
        while (q < end && (buf[q] as number) >= 48 && (buf[q] as number) <= 57) q++;
        const digits = q - digitsFrom;
        // Canonical only: no leading zero, no -0, no fraction or exponent (those print differently).
        if (digits === 0 || digits > MAX_DIGITS) return false;
        if (buf[digitsFrom] === 48 && (digits > 1 || c0 === MINUS)) return false;
        ve = q;
        p = q;
      } else if (matches(buf, p, end, 'true') || matches(buf, p, end, 'false')) {
        ve = p + (c0 === 116 ? 4 : 5);
        p = ve;
      } else {
        return false;
      }
      for (let i = 0; i < found; i++) {
        const name = names[i] as Buffer;
        if (name.length === keyEnd - keyStart && sameBytes(name, buf, keyStart)) {
          // A field the load reads, twice: the caller's JSON.parse path refuses it with its position.
          if ((seen & (1 << i)) !== 0) return false;
          row.set(i, buf, vs, ve);
          seen |= 1 << i;
        }
      }
      while (p < end && isWs(buf[p])) p++;
      const sep = buf[p];
      p++;
      if (sep === COMMA) {
        while (p < end && isWs(buf[p])) p++;
        continue;
      }
      if (sep === CLOSE) break;
      return false;
    }
  }
  while (p < end && isWs(buf[p])) p++;
  if (p !== end) return false;
  if (seen !== (1 << found) - 1) return false;
  // Malformed bytes: the JSON.parse path refuses the line at the first one.
  if (high && invalidUtf8At(buf, start, end) >= 0) return false;
  row.count = found;
  return true;
}

/** Byte classes inside a JSON string: 0 plain, 1 the closing quote, 2 not for this path, 3 non-ASCII. */
const STRING_CLASS = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_CLASS[c] = 2;
STRING_CLASS[QUOTE] = 1;
STRING_CLASS[BACKSLASH] = 2;
for (let c = 0x80; c < 0x100; c++) STRING_CLASS[c] = 3;

/** Added to stringEnd's result when the string holds non-ASCII bytes. */
const HIGH = 2 ** 40;

/**
 * Offset of the quote closing the string whose text starts at p (plus HIGH
 * when it holds non-ASCII bytes), or -1 for an escape, a control byte or no
 * closing quote. One table lookup a byte: this loop is the fast path's cost.
 */
function stringEnd(buf: Buffer, p: number, end: number): number {
  let high = 0;
  for (let q = p; q < end; q++) {
    const k = STRING_CLASS[buf[q] as number] as number;
    if (k === 0) continue;
    if (k === 1) return q + high;
    if (k === 2) return -1;
    high = HIGH;
  }
  return -1;
}

/** Most names the fast path tracks (one bit each). */
export const FLAT_MAX_FIELDS = 31;

function sameBytes(name: Buffer, buf: Buffer, at: number): boolean {
  for (let i = 0; i < name.length; i++) if (name[i] !== buf[at + i]) return false;
  return true;
}

function matches(buf: Buffer, p: number, end: number, word: string): boolean {
  if (p + word.length > end) return false;
  for (let i = 0; i < word.length; i++) if (buf[p + i] !== word.charCodeAt(i)) return false;
  return true;
}
