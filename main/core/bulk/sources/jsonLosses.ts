/*
 * What JSON.parse followed by a UTF-8 encode would change without a word, found in the
 * line's text (already known to be valid JSON) so the load can refuse it with a position.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;
const COLON = 58;

/** Offset of the quote closing the string opened at `open`. */
function stringEnd(text: string, open: number): number {
  let q = open;
  for (;;) {
    q = text.indexOf('"', q + 1);
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
  }
}

/** Colons anywhere in the text: one per key, plus any inside strings. */
function colons(text: string): number {
  let n = 0;
  for (let p = text.indexOf(':'); p >= 0; p = text.indexOf(':', p + 1)) n++;
  return n;
}

/** Keys in the text: strings followed by a colon (only keys are, in valid JSON). */
function keysInText(text: string): number {
  let n = 0;
  for (let p = text.indexOf('"'); p >= 0;) {
    let q = stringEnd(text, p) + 1;
    let c = text.charCodeAt(q);
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++q);
    if (c === COLON) n++;
    p = text.indexOf('"', q);
  }
  return n;
}

/** Keys in a JSON.parse result, nested objects included. */
function keysInValue(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) n += keysInValue(x);
    return n;
  }
  for (const k in v) n += 1 + keysInValue((v as Record<string, unknown>)[k]);
  return n;
}

/**
 * The first key an object repeats in `text` (JSON.parse keeps the last value and drops the
 * others; `value` is what it returned), as the key and the indexes of its first and second
 * occurrences; null when none. A top-level key counts only
 * when `used(key)` (a field the load does not read drops nothing); inside the value of a used
 * top-level key every object counts, since that value is stored whole as JSON.
 */
export function repeatedKey(text: string, value: unknown, used: (key: string) => boolean): { key: string; first: number; index: number } | null {
  // The common case, cheaply: JSON.parse kept every key the text has, so none repeats. Every
  // key has its colon, so as many colons as kept keys settles it without reading the strings.
  const kept = keysInValue(value);
  if (colons(text) === kept || keysInText(text) === kept) return null;
  // One entry per open object (its keys and where each is, or null when they do not count) or array (undefined).
  const open: (Map<string, number> | null | undefined)[] = [];
  let expectKey = false;
  let topUsed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = stringEnd(text, i);
      if (expectKey) {
        expectKey = false;
        const raw = text.slice(i + 1, close);
        // "a" and "\u0061" are one key to JSON.parse.
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, close + 1)) as string) : raw;
        if (open.length === 1) topUsed = used(key);
        const keys = open[open.length - 1];
        if (keys && (open.length > 1 || topUsed)) {
          const first = keys.get(key);
          if (first !== undefined) return { key, first, index: i };
          keys.set(key, i);
        }
      }
      i = close;
    } else if (c === OPEN_OBJECT) {
      open.push(open.length === 0 || topUsed ? new Map() : null);
      expectKey = true;
    } else if (c === OPEN_ARRAY) {
      open.push(undefined);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
    } else if (c === COMMA) {
      expectKey = open[open.length - 1] !== undefined;
    }
  }
  return null;
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const ESCAPES = /\\(?:u([0-9a-fA-F]{4})|[^u])/g;

/**
 * Index of a \uD800–\uDFFF escape that is not half of a pair, or -1. JSON allows it, but
 * UTF-8 has no bytes for a lone surrogate: Buffer would write U+FFFD in its place.
 */
export function loneSurrogateAt(text: string): number {
  // Most lines hold no escape at all: one memchr-like search settles them.
  if (!text.includes('\\') || !SURROGATE_ESCAPE.test(text)) return -1;
  let pendingHigh = -1; // index of a high surrogate escape awaiting its low half
  let lastEnd = -1;
  for (const m of text.matchAll(ESCAPES)) {
    const unit = m[1] === undefined ? -1 : parseInt(m[1], 16);
    const adjacent = m.index === lastEnd;
    lastEnd = m.index + m[0].length;
    if (pendingHigh >= 0) {
      if (adjacent && unit >= 0xdc00 && unit <= 0xdfff) {
        pendingHigh = -1;
        continue;
      }
      return pendingHigh;
    }
    if (unit >= 0xd800 && unit <= 0xdbff) pendingHigh = m.index;
    else if (unit >= 0xdc00 && unit <= 0xdfff) return m.index;
  }
  return pendingHigh;
}
