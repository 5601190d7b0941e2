import { Decoder } from '@msgpack/msgpack';
import javaDeserialization from 'java-deserialization';
import phpSerialize from 'php-serialize';
import type { DecodeAs } from '../../../../app/schemas/keys';
import { escapeBytes } from '../../text/escapeBytes';
import { parsePickle } from './pickleValue';
import { readFields } from './protobufFields';

export type Format = Exclude<DecodeAs, 'auto'>;

/** A decoded value, or text already rendered (text mode has nothing to walk). */
export type Decoded = { value: unknown } | { text: string; truncated: boolean };

/**
 * A parser's error as the user reads it, prefixed with the format; the stack overflow a
 * recursive parser (PHP, Java) meets on deep nesting is said plainly.
 */
function failure(format: Format, e: unknown): Error {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return new Error(`${format}: the value is nested too deeply to decode`);
  const msg = e instanceof Error ? e.message : String(e);
  const pos = (e as { pos?: unknown }).pos;
  return new Error(`${format}: ${msg}${typeof pos === 'number' ? ` (at byte ${pos})` : ''}`);
}

function json(buf: Buffer): Decoded {
  const s = buf.toString('utf8');
  try {
    return { value: JSON.parse(s) as unknown };
  } catch (e) {
    // V8 names the position ("… in JSON at position 12"): kept as is.
    throw failure('json', e);
  }
}

function msgpack(buf: Buffer): Decoded {
  // Every element takes at least one byte: no length the value states can be longer than it.
  const n = buf.length;
  const decoder = new Decoder({ maxStrLength: n, maxBinLength: n, maxArrayLength: n, maxMapLength: n, maxExtLength: n, useBigInt64: true });
  try {
    return { value: decoder.decode(buf) };
  } catch (e) {
    // The decoder's read offset (a private field) is where it stopped: named, as for the other formats.
    const pos = (decoder as unknown as { pos?: unknown }).pos;
    const msg = e instanceof Error ? e.message : String(e);
    throw new Error(`msgpack: ${msg}${typeof pos === 'number' && !/ at \d+| position /.test(msg) ? ` (at byte ${pos})` : ''}`, { cause: e });
  }
}

function php(buf: Buffer): Decoded {
  try {
    // strict: false turns an unknown class into __PHP_Incomplete_Class instead of throwing; the
    // scope has no prototype, so no class name ("constructor", "toString") finds a function.
    return { value: phpSerialize.unserialize(buf, Object.create(null) as Record<string, never>, { strict: false, encoding: 'utf8' }) };
  } catch (e) {
    throw failure('php', e);
  }
}

function pickle(buf: Buffer): Decoded {
  try {
    return { value: parsePickle(buf) };
  } catch (e) {
    throw failure('pickle', e);
  }
}

function java(buf: Buffer): Decoded {
  try {
    const contents = javaDeserialization.parse(buf);
    return { value: contents.length === 1 ? contents[0] : contents };
  } catch (e) {
    // The parser's "Premature end of input" carries the byte it needed (err.pos).
    throw failure('java', e);
  }
}

export const DECODERS: Record<Exclude<Format, 'text' | 'protobuf'>, (buf: Buffer) => Decoded> = { json, msgpack, php, pickle, java };

export function protobuf(buf: Buffer, depth: number, partial: boolean): Decoded {
  return { value: readFields(buf, depth, 0, partial) };
}

/** A byte escapeBytes shows as itself: printable ASCII other than the backslash. */
const plain = (b: number): boolean => b >= 0x20 && b < 0x7f && b !== 0x5c;

/**
 * Text as escapeBytes shows it, built run by run: printable ASCII is copied a run at a time
 * (escapeBytes would add it a character at a time: ~0.4 s for 2 MB), and every other stretch
 * (UTF-8, control bytes) goes through escapeBytes itself, so there is one escaping rule.
 */
export function text(buf: Buffer, maxChars: number): Decoded {
  const parts: string[] = [];
  let chars = 0;
  let i = 0;
  while (i < buf.length && chars < maxChars) {
    let j = i;
    const stop = Math.min(buf.length, i + (maxChars - chars));
    while (j < stop && plain(buf[j] as number)) j++;
    if (j > i) {
      parts.push(buf.toString('latin1', i, j));
      chars += j - i;
      i = j;
      continue;
    }
    while (j < buf.length && j - i < 4096 && !plain(buf[j] as number)) j++;
    const e = escapeBytes(buf, i, buf.length, { maxChars: maxChars - chars, maxBytes: j - i });
    if (e.next === i) break; // the next escape would pass maxChars
    parts.push(e.text);
    chars += e.text.length;
    i = e.next;
  }
  return { text: parts.join(''), truncated: i < buf.length };
}
