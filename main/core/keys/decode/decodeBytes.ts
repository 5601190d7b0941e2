import type { Compression, DecodeAs, DecodeCompression } from '../../../../app/schemas/keys';
import { sizeText, type DecodeLimits } from './decodeLimits';
import { decompress, detectCompression, TooLargeError } from './decompress';
import { DECODERS, protobuf, text, type Decoded, type Format } from './formats';
import { renderValue } from './render';
import { entriesOf, labelOf, scalarOf } from './valueLabels';

/** One decode, as the worker receives it. */
export interface DecodeJob {
  bytes: Uint8Array;
  as: DecodeAs;
  compression: DecodeCompression;
  /** The value's full length (STRLEN): longer than `bytes` when only its first bytes were read. */
  valueBytes: number;
  limits: DecodeLimits;
}

export interface DecodeOutcome {
  compression: Compression | null;
  format: Format;
  decodedBytes: number;
  text: string;
  truncated: boolean;
  error: string | null;
}

const PHP_SHAPE = /^(?:a:\d+:\{|s:\d+:"|O:\d+:"|C:\d+:"|i:-?\d+;|d:[-+0-9.eEINFA]+;|b:[01];|N;)/;

/**
 * The formats `auto` tries, most specific first: magic bytes (Java, pickle protocol 2+), then
 * shapes that a parse confirms (JSON, PHP, msgpack). Text is what is left. Protobuf is never
 * guessed: nearly any bytes read as a few protobuf fields.
 */
function candidates(buf: Buffer): Format[] {
  const out: Format[] = [];
  const b0 = buf[0];
  if (buf.length >= 4 && b0 === 0xac && buf[1] === 0xed && buf[2] === 0x00 && buf[3] === 0x05) out.push('java');
  if (b0 === 0x80 && (buf[1] ?? 0) >= 2 && (buf[1] ?? 0) <= 5 && buf[buf.length - 1] === 0x2e) out.push('pickle');
  const head = buf.subarray(0, 64).toString('latin1').trimStart();
  if (head.startsWith('{') || head.startsWith('[')) out.push('json');
  if (PHP_SHAPE.test(head)) out.push('php');
  // fixmap, fixarray, array 16/32, map 16/32: a msgpack value worth a structured view.
  if (b0 !== undefined && ((b0 >= 0x80 && b0 <= 0x9f) || (b0 >= 0xdc && b0 <= 0xdf))) out.push('msgpack');
  return out;
}

function decodeAs(format: Format, buf: Buffer, limits: DecodeLimits, cut = false): Decoded {
  if (format === 'text') return text(buf, limits.textChars);
  if (format === 'protobuf') return protobuf(buf, Math.min(limits.depth, 16), cut);
  return DECODERS[format](buf);
}

function rendered(decoded: Decoded, limits: DecodeLimits): { text: string; truncated: boolean } {
  if ('text' in decoded) return decoded;
  return renderValue(decoded.value, { depth: limits.depth, maxChars: limits.textChars, label: labelOf, entries: entriesOf, scalar: scalarOf });
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Decompresses and decodes one value's bytes. Runs in the decode worker (decodeWorker.ts):
 * nothing here is bounded in time, the worker's time limit is. A value longer than what was
 * read (`valueBytes > bytes.length`) is decoded only as what can be read in part: text (its
 * first bytes) and protobuf (the fields that fit); compressed data and the other formats need
 * the whole value, so they are refused with the sizes named, and `auto` falls back to text.
 */
export function decodeBytes(job: DecodeJob): DecodeOutcome {
  const { limits } = job;
  const input = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  const cut = job.valueBytes > input.length;
  const asked: Format | null = job.as === 'auto' ? null : job.as;
  const fail = (error: string, compression: Compression | null, format: Format = asked ?? 'text', decodedBytes = 0): DecodeOutcome => ({
    compression,
    format,
    decodedBytes,
    text: '',
    truncated: false,
    error,
  });
  const tooLong = (what: string): string =>
    `${what} needs the whole value, which is ${sizeText(job.valueBytes)}; decoding reads at most the first ${sizeText(limits.readBytes)}`;

  const compression = job.compression === 'auto' ? detectCompression(input) : job.compression === 'none' ? null : job.compression;
  let buf = input;
  if (compression !== null) {
    const weakMagic = job.compression === 'auto' && compression === 'deflate';
    if (cut) return weakMagic ? decodeBytes({ ...job, compression: 'none' }) : fail(tooLong(`Decompressing ${compression}`), compression);
    try {
      buf = decompress(compression, input, limits.decompressedBytes);
    } catch (e) {
      // A zlib header is only two bytes, and "x^" or "x\x01" may start plain text: found by
      // its magic (not named) and not inflating, it was no zlib stream. A bomb still refuses.
      if (!weakMagic || e instanceof TooLargeError) return fail(errorText(e), compression);
      return decodeBytes({ ...job, compression: 'none' });
    }
  }

  let format: Format;
  let decoded: Decoded;
  if (asked !== null) {
    if (cut && asked !== 'text' && asked !== 'protobuf') return fail(tooLong(`Decoding ${asked}`), compression, asked, buf.length);
    format = asked;
    try {
      decoded = decodeAs(asked, buf, limits, cut);
    } catch (e) {
      return fail(errorText(e), compression, asked, buf.length);
    }
  } else {
    format = 'text';
    decoded = text(buf, limits.textChars);
    for (const f of cut ? [] : candidates(buf)) {
      try {
        decoded = decodeAs(f, buf, limits);
        format = f;
        break;
      } catch {
        // Not this format after all: the next candidate, else text.
      }
    }
  }
  const out = rendered(decoded, limits);
  return { compression, format, decodedBytes: buf.length, text: out.text, truncated: out.truncated || cut, error: null };
}
