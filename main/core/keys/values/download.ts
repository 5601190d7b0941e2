import { AppError } from '../../../../app/errors';
import type { DownloadEvent } from '../../../../app/schemas/keys';
import { keyName } from '../../text/keyText';
import { keyTypeOf } from './keyType';
import { asBuf, asNum, asText, type ValueClient } from './valueClient';

/** Bytes of value per event (GETRANGE window): 256 KB is ~342 KB of base64. */
export const DOWNLOAD_CHUNK_BYTES = 256 * 1024;
/**
 * Chunks allowed to wait for delivery. The stream's queue sends everything waiting as one
 * batch (one message); two chunks keep a batch near 700 KB, under the protocol's 1 MiB
 * message size, and far from the queue's capacity, so no chunk is ever dropped.
 */
export const DOWNLOAD_MAX_BACKLOG = 2;

/** The part of a stream's sink the download needs. */
export interface ChunkSink {
  push(event: DownloadEvent): void;
  /** Events pushed and not yet delivered. */
  readonly backlog: number;
  readonly signal: AbortSignal;
}

export interface DownloadOptions {
  chunkBytes?: number;
  maxBacklog?: number;
  /** How often a paced producer looks whether the consumer has caught up. */
  pollMs?: number;
}

/**
 * Streams a string value's bytes in GETRANGE chunks, each read with STRLEN in the same round
 * trip. Paced by the sink: a chunk is read only once fewer than `maxBacklog` wait for delivery
 * (a slow or congested client slows the reads, never drops a chunk; a dropped chunk would be a
 * corrupt file). Fails rather than deliver a wrong file: when the length changes mid-way
 * (CONFLICT), or should the sink ever drop a chunk. A same-length overwrite between two
 * chunks is not detectable without reading the whole value twice, and is not detected.
 * Resolves when the last chunk (done: true) is pushed, or at once when the signal aborts.
 */
export async function downloadString(client: ValueClient, key: Buffer, sink: ChunkSink, opts: DownloadOptions = {}): Promise<void> {
  const chunkBytes = opts.chunkBytes ?? DOWNLOAD_CHUNK_BYTES;
  const maxBacklog = opts.maxBacklog ?? DOWNLOAD_MAX_BACKLOG;
  const pollMs = opts.pollMs ?? 5;
  const name = keyName(key).text;
  const [type, strlen] = await Promise.all([client.send('TYPE', key), client.send('STRLEN', key).catch(() => null)]);
  const real = keyTypeOf(asText(type));
  if (real.type === null) throw new AppError('NOT_FOUND', `Key ${name} does not exist (deleted or expired?)`, 'key');
  if (real.type !== 'string') throw new AppError('VALIDATION', `Only a string value downloads; key ${name} is a ${real.moduleType ?? real.type}`, 'key');
  const total = asNum(strlen) ?? 0;
  let offset = 0;
  do {
    if (!(await roomIn(sink, maxBacklog, pollMs))) return;
    const want = Math.min(chunkBytes, total - offset);
    // Never GETRANGE 0 -1: on a value that grew since, that would be the whole value.
    const [data, length] = await Promise.all([want === 0 ? null : client.send('GETRANGE', key, offset, offset + want - 1), client.send('STRLEN', key)]);
    const bytes = want === 0 ? Buffer.alloc(0) : (asBuf(data) ?? Buffer.alloc(0));
    const now = asNum(length) ?? 0;
    if (now !== total || bytes.length !== want) {
      throw new AppError(
        'CONFLICT',
        `Key ${name} changed during the download (${total} bytes when it began, ${now} now): the download is incomplete; download it again`,
      );
    }
    if (sink.signal.aborted) return;
    const before = sink.backlog;
    const done = offset + want >= total;
    sink.push({ chunk: bytes.toString('base64'), offset, total, done });
    if (sink.backlog !== before + 1)
      throw new AppError('INTERNAL', `The download of ${name} lost a chunk at byte ${offset}: it is incomplete; download it again`);
    offset += want;
    if (done) return;
  } while (offset < total);
}

/** Waits until fewer than `max` events wait for delivery; false when the stream ended meanwhile. */
export async function roomIn(sink: Pick<ChunkSink, 'backlog' | 'signal'>, max: number, pollMs: number): Promise<boolean> {
  while (sink.backlog >= max) {
    if (sink.signal.aborted) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return !sink.signal.aborted;
}
