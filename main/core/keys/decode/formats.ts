import { decode as msgpackDecode } from '@msgpack/msgpack';
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
  try {
    return { value: msgpackDecode(buf, { maxStrLength: n, maxBinLength: n, maxArrayLength: n, maxMapLength: n, maxExtLength: n, useBigInt64: true }) };
  } catch (e) {
    throw failure('msgpack', e);
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

export function text(buf: Buffer, maxChars: number): Decoded {
  const { text: t, next } = escapeBytes(buf, 0, buf.length, { maxChars });
  return { text: t, truncated: next < buf.length };
}
