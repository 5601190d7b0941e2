/**
 * Redis' own glob (SCAN MATCH, KEYS) on bytes: a port of stringmatchlen() in util.c, case
 * sensitive, so a pattern filters the name index exactly as the server would filter a SCAN:
 * `*`, `?`, `[abc]`, `[^a]`, `[a-z]` (ends swapped when reversed), `\x` for a literal x, an
 * unclosed `[` running to the pattern's end. Byte ranges compare as C's signed char does on
 * x86 and ARM64 Linux builds (so `[a-\xff]` matches what the server matches). Parity with the
 * real server is tested in glob.test.ts. The one glob of the code base: the Keys page's index,
 * SCAN MATCH patterns and MONITOR's key filter all match as the server would.
 */
export function globMatch(pattern: Uint8Array, key: Uint8Array): boolean {
  // SCAN skips matching for a lone `*`, so it keeps even the empty name (which `*` alone would not match).
  if (pattern.length === 1 && pattern[0] === STAR) return true;
  const skip = { longer: false };
  return matchAt(pattern, 0, key, 0, skip, 0);
}

const STAR = 0x2a;
const QUESTION = 0x3f;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const BACKSLASH = 0x5c;
const CARET = 0x5e;
const DASH = 0x2d;

/** C's `char` is signed on the platforms Redis ships for: a byte of 0x80 or more is negative. */
const signed = (b: number): number => (b << 24) >> 24;

function matchAt(p: Uint8Array, pi: number, s: Uint8Array, si: number, skip: { longer: boolean }, nesting: number): boolean {
  // The server gives up on patterns nested this deep (abusive patterns), and so do we.
  if (nesting > 1000) return false;
  const pEnd = p.length;
  const sEnd = s.length;
  while (pi < pEnd && si < sEnd) {
    const c = p[pi] as number;
    if (c === STAR) {
      while (pi + 1 < pEnd && p[pi + 1] === STAR) pi++;
      if (pi + 1 === pEnd) return true;
      while (si < sEnd) {
        if (matchAt(p, pi + 1, s, si, skip, nesting + 1)) return true;
        if (skip.longer) return false;
        si++;
      }
      // The rest of the pattern matched nowhere: an earlier `*` trying longer matches can't help.
      skip.longer = true;
      return false;
    } else if (c === QUESTION) {
      si++;
    } else if (c === OPEN) {
      pi++;
      const not = p[pi] === CARET;
      if (not) pi++;
      let match = false;
      const sc = s[si] as number;
      for (;;) {
        if (p[pi] === BACKSLASH && pEnd - pi >= 2) {
          pi++;
          if (p[pi] === sc) match = true;
        } else if (p[pi] === CLOSE) {
          break;
        } else if (pi >= pEnd) {
          pi--;
          break;
        } else if (pEnd - pi >= 3 && p[pi + 1] === DASH) {
          let start = signed(p[pi] as number);
          let end = signed(p[pi + 2] as number);
          if (start > end) [start, end] = [end, start];
          pi += 2;
          const v = signed(sc);
          if (v >= start && v <= end) match = true;
        } else if (p[pi] === sc) {
          match = true;
        }
        pi++;
      }
      if (not) match = !match;
      if (!match) return false;
      si++;
    } else {
      if (c === BACKSLASH && pEnd - pi >= 2) pi++;
      if (p[pi] !== s[si]) return false;
      si++;
    }
    pi++;
    if (si === sEnd) {
      while (pi < pEnd && p[pi] === STAR) pi++;
      break;
    }
  }
  return pi === pEnd && si === sEnd;
}

/**
 * The bytes every match starts with: the pattern up to its first `*`, `?` or `[` (a `\x` adds
 * x). The name index lists only names under it; `exact` when the pattern has no wildcard at all.
 */
export function literalPrefix(pattern: Uint8Array): { prefix: Buffer; exact: boolean } {
  const out: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as number;
    if (c === STAR || c === QUESTION || c === OPEN) return { prefix: Buffer.from(out), exact: false };
    if (c === BACKSLASH && i + 1 < pattern.length) i++;
    out.push(pattern[i] as number);
  }
  return { prefix: Buffer.from(out), exact: true };
}

/** A glob matching exactly the names that start with `prefix` (its specials escaped), for SCAN MATCH. */
export function prefixGlob(prefix: Uint8Array): Buffer {
  const out: number[] = [];
  for (const b of prefix) {
    if (b === STAR || b === QUESTION || b === OPEN || b === CLOSE || b === BACKSLASH) out.push(BACKSLASH);
    out.push(b);
  }
  out.push(STAR);
  return Buffer.from(out);
}

/**
 * The glob over text (MONITOR's arguments, which the server escapes to printable ASCII),
 * compiled once per filter: both sides as the UTF-8 bytes the server would see.
 */
export function compileGlob(pattern: string): (text: string) => boolean {
  const bytes = Buffer.from(pattern);
  return (text) => globMatch(bytes, Buffer.from(text));
}
