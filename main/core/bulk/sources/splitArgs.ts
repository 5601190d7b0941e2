import type { Row } from './row';
import type { Scratch } from './scratch';
import { showByte } from './utf8';

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const DQUOTE = 34;
const SQUOTE = 39;
const BACKSLASH = 92;

/** C's isspace() (space, \t \n \v \f \r): what sdssplitargs skips between arguments and wants after a closing quote. */
export function isSpace(c: number | undefined): boolean {
  return c === SPACE || (c !== undefined && c >= TAB && c <= CR);
}

function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/** What splitArgs reports for malformed quoting: the offset to point at and the text. */
export type SplitFail = (offset: number, message: string) => never;

/**
 * Split one line, data[start, end) without its line break, into arguments
 * the way redis-cli and Redis's inline protocol do (sdssplitargs):
 * - unquoted text splits on spaces, tabs, CR and LF; a quote inside it opens
 *   a quoted part of the same argument (`a"b c"` is `ab c`);
 * - "…" takes \n \r \t \b \a, \xHH (two hex digits) and \<any> for that
 *   character (so \" and \\);
 * - '…' takes only \' as an escape;
 * - a closing quote must be followed by whitespace or the end of the line.
 * One difference: a NUL byte is data here; sdssplitargs, working on C
 * strings, would stop at it.
 *
 * Unquoted arguments point into data; quoted ones are unescaped into scratch.
 * Returns the argument count; `columnOf(offset)` is only used for messages.
 */
export function splitArgs(data: Buffer, start: number, end: number, row: Row, scratch: Scratch, fail: SplitFail, columnOf: (offset: number) => number): number {
  scratch.reset();
  let n = 0;
  let p = start;
  for (;;) {
    while (p < end && isSpace(data[p])) p++;
    if (p >= end) return n;
    // Fast path: a plain argument, no quotes: a range of data.
    let q = p;
    for (; q < end; q++) {
      const c = data[q] as number;
      if (c === SPACE || c === TAB || c === LF || c === CR || c === DQUOTE || c === SQUOTE) break;
    }
    if (q >= end || (data[q] !== DQUOTE && data[q] !== SQUOTE)) {
      row.set(n++, data, p, q);
      p = q;
      continue;
    }
    // Quotes: unescape into scratch; the result is never longer than the text.
    scratch.reserve(end - p);
    const out = scratch.buf;
    const from = scratch.len;
    let w = from;
    for (let i = p; i < q; i++) out[w++] = data[i] as number;
    p = q;
    let quote = 0; // the open quote, or 0 outside quotes
    let openedAt = 0;
    for (;;) {
      if (quote === 0) {
        if (p >= end) break;
        const c = data[p] as number;
        if (c === SPACE || c === TAB || c === LF || c === CR) break;
        if (c === DQUOTE || c === SQUOTE) {
          quote = c;
          openedAt = p;
        } else {
          out[w++] = c;
        }
        p++;
        continue;
      }
      if (p >= end) fail(end, `unterminated quote opened at column ${columnOf(openedAt)}`);
      const c = data[p] as number;
      if (c === quote) {
        if (p + 1 < end && !isSpace(data[p + 1])) {
          fail(p + 1, `a closing quote must be followed by a space or the end of the line, got ${showByte(data[p + 1])}`);
        }
        p++;
        break;
      }
      if (c === BACKSLASH && p + 1 < end) {
        const e = data[p + 1] as number;
        if (quote === SQUOTE) {
          if (e === SQUOTE) {
            out[w++] = SQUOTE;
            p += 2;
          } else {
            out[w++] = BACKSLASH;
            p++;
          }
          continue;
        }
        if (e === 0x78) {
          // \xHH; without two hex digits it falls to the generic rule: 'x'.
          const hi = p + 2 < end ? hexValue(data[p + 2]) : -1;
          const lo = p + 3 < end ? hexValue(data[p + 3]) : -1; // data may run past end
          if (hi >= 0 && lo >= 0) {
            out[w++] = hi * 16 + lo;
            p += 4;
            continue;
          }
        }
        out[w++] = e === 0x6e ? LF : e === 0x72 ? CR : e === 0x74 ? TAB : e === 0x62 ? 8 : e === 0x61 ? 7 : e;
        p += 2;
        continue;
      }
      out[w++] = c;
      p++;
    }
    scratch.len = w;
    row.set(n++, out, from, w);
  }
}
