import { utf8SequenceLength } from './utf8Sequence';

export interface EscapeOptions {
  /** Escape `"` as `\"` too: for text people read between double quotes (key names). */
  quote?: boolean;
  /** Stop before the text would pass this many UTF-16 code units; an escape is never split. */
  maxChars?: number;
  /** Show at most this many input bytes (a character that straddles the limit is shown whole). */
  maxBytes?: number;
}

export interface Escaped {
  text: string;
  /** Offset of the first byte not shown: `end` when nothing was cut. */
  next: number;
}

const NAMED: Record<number, string> = { 10: '\\n', 13: '\\r', 9: '\\t', 7: '\\a', 8: '\\b' };
const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/**
 * Characters that draw nothing or reorder what follows: C1 controls, bidi controls (U+202E can
 * make `gpj.exe` read `exe.jpg`), zero-width spaces and joiners, the BOM. Shown as
 * `\u202e` so two keys that look alike on screen never read alike.
 */
function isInvisible(cp: number): boolean {
  return (
    (cp >= 0x80 && cp < 0xa0) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x2069) ||
    cp === 0x061c ||
    cp === 0xfeff
  );
}

/**
 * Bytes as redis-cli shows them: printable ASCII and well-formed UTF-8 as
 * text, `\\` for a backslash, \n \r \t \a \b, and \xHH for every other byte
 * (control bytes, malformed UTF-8); invisible and bidi characters as \uHHHH.
 * Redis keys and values are arbitrary bytes,
 * so this is the one way Cacheboard turns them into text.
 */
export function escapeBytes(buf: Uint8Array, start: number, end: number, opts: EscapeOptions = {}): Escaped {
  const maxChars = opts.maxChars ?? Number.POSITIVE_INFINITY;
  const byteStop = opts.maxBytes === undefined ? end : Math.min(end, start + opts.maxBytes);
  let out = '';
  let i = start;
  while (i < byteStop) {
    const b = buf[i] as number;
    let piece: string;
    let len = 1;
    if (b >= 0x20 && b < 0x7f) {
      piece = b === BACKSLASH ? '\\\\' : b === QUOTE && opts.quote === true ? '\\"' : String.fromCharCode(b);
    } else if (b >= 0x80 && (len = utf8SequenceLength(buf, i, end)) > 0) {
      piece = Buffer.from(buf.buffer, buf.byteOffset + i, len).toString('utf8');
      const cp = piece.codePointAt(0) as number;
      if (isInvisible(cp)) piece = `\\u${cp.toString(16).padStart(4, '0')}`;
    } else {
      len = 1;
      piece = NAMED[b] ?? `\\x${b.toString(16).padStart(2, '0')}`;
    }
    if (out.length + piece.length > maxChars) break;
    out += piece;
    i += len;
  }
  return { text: out, next: i };
}
