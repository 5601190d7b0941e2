import { Decompress as ZstdDecompress } from 'fzstd';
import lz4 from 'lz4js';
import SnappyJS from 'snappyjs';
import zlib from 'node:zlib';
import type { Compression } from '../../../../app/schemas/keys';
import { sizeText } from './decodeLimits';
import { SNAPPY_FRAME_MAGIC, unframeSnappy } from './snappyFrames';

const ZSTD = [0x28, 0xb5, 0x2f, 0xfd];
const LZ4_FRAME = [0x04, 0x22, 0x4d, 0x18];
/** A zlib header's second byte for each compression level (RFC 1950: CMF 0x78 = deflate, 32 KB window). */
const ZLIB_FLG = new Set([0x01, 0x5e, 0x9c, 0xda]);

function startsWith(buf: Buffer, magic: ArrayLike<number>): boolean {
  if (buf.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (buf[i] !== magic[i]) return false;
  return true;
}

/**
 * The compression a value's first bytes name, or null. Brotli and raw (unframed) snappy have
 * no magic bytes at all: any bytes might be either, so they are undone only when asked for.
 */
export function detectCompression(buf: Buffer): Compression | null {
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return 'gzip';
  if (buf.length >= 2 && buf[0] === 0x78 && ZLIB_FLG.has(buf[1] as number)) return 'deflate';
  if (startsWith(buf, ZSTD)) return 'zstd';
  if (startsWith(buf, LZ4_FRAME)) return 'lz4';
  if (startsWith(buf, SNAPPY_FRAME_MAGIC)) return 'snappy';
  return null;
}

/** Decompression stopped at the output cap: the error names the cap. */
export class TooLargeError extends Error {}

function tooLarge(kind: Compression, max: number): TooLargeError {
  return new TooLargeError(`${kind}: the value decompresses to more than ${sizeText(max)}, the most decoding produces; stopped there (a compression bomb?)`);
}

/** node:zlib's own refusal at maxOutputLength, and its "unexpected end of file" said plainly. */
function zlibRun(kind: Compression, run: () => Buffer, max: number): Buffer {
  try {
    return run();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) throw Object.assign(tooLarge(kind, max), { cause: e });
    const msg = e instanceof Error ? e.message : String(e);
    if (code === 'Z_BUF_ERROR' || /unexpected end/i.test(msg)) throw new Error(`${kind}: the compressed data ends early (cut or corrupt)`, { cause: e });
    throw new Error(`${kind}: ${msg}`, { cause: e });
  }
}

function zstd(input: Buffer, max: number): Buffer {
  const parts: Uint8Array[] = [];
  let total = 0;
  // The streaming decoder hands over each block as it is made, so the cap stops a bomb early.
  const d = new ZstdDecompress((chunk) => {
    total += chunk.length;
    if (total > max) throw tooLarge('zstd', max);
    parts.push(chunk.slice());
  });
  try {
    d.push(input, true);
  } catch (e) {
    if (e instanceof TooLargeError) throw e;
    throw new Error(`zstd: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return Buffer.concat(parts, total);
}

function lz4Frame(input: Buffer, max: number): Buffer {
  let bound: number;
  try {
    // The frame's stated content size, else the sum of its block sizes: the output's most.
    bound = Number(lz4.decompressBound(input));
  } catch (e) {
    throw new Error(`lz4: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  if (!Number.isFinite(bound) || bound < 0) throw new Error('lz4: the frame header is corrupt');
  if (bound > max) throw tooLarge('lz4', max);
  const out = new Uint8Array(bound);
  let size: number;
  try {
    size = lz4.decompressFrame(input, out);
  } catch (e) {
    throw new Error(`lz4: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  if (!Number.isFinite(size)) throw new Error('lz4: the compressed data is corrupt');
  return Buffer.from(out.buffer, 0, Math.min(size, bound));
}

function snappy(input: Buffer, max: number): Buffer {
  try {
    if (startsWith(input, SNAPPY_FRAME_MAGIC)) return unframeSnappy(input, max, () => tooLarge('snappy', max));
    // Raw snappy states its length first; snappyjs refuses past maxLength before allocating.
    return Buffer.from(SnappyJS.uncompress(input, max));
  } catch (e) {
    if (e instanceof TooLargeError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    if (/too big/i.test(msg)) throw Object.assign(tooLarge('snappy', max), { cause: e });
    throw new Error(msg.startsWith('snappy') ? msg : `snappy: ${msg}`, { cause: e });
  }
}

/** Undoes one compression, producing at most `max` bytes (else TooLargeError). */
export function decompress(kind: Compression, input: Buffer, max: number): Buffer {
  switch (kind) {
    case 'gzip':
      return zlibRun(kind, () => zlib.gunzipSync(input, { maxOutputLength: max }), max);
    case 'deflate':
      return zlibRun(kind, () => zlib.inflateSync(input, { maxOutputLength: max }), max);
    case 'brotli':
      return zlibRun(kind, () => zlib.brotliDecompressSync(input, { maxOutputLength: max }), max);
    case 'zstd':
      return zstd(input, max);
    case 'lz4':
      return lz4Frame(input, max);
    case 'snappy':
      return snappy(input, max);
  }
}
