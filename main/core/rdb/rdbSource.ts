import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { RdbParser, type RdbParseOptions } from './rdbParser';
import type { RdbSummary, RdbVisitor } from './rdbRecord';

/** Big reads keep the per-chunk cost (and straddled headers) rare: the parser works in place on each chunk. */
const FILE_CHUNK = 1 << 20;

export type RdbInput = Readable | AsyncIterable<Buffer>;

/**
 * Parse an RDB from a stream of bytes (a file, a socket after the replication preamble, or any
 * async iterable of Buffers). gzip input (`.rdb.gz`) is recognised by its magic bytes and
 * inflated as it streams, so the caller never needs to say which it has.
 */
export async function parseRdb(input: RdbInput, visitor: RdbVisitor, opts: RdbParseOptions = {}): Promise<RdbSummary> {
  const chunks = await gunzipIfNeeded(input[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  try {
    return await new RdbParser(chunks, visitor, opts).run();
  } finally {
    await chunks.return?.();
  }
}

/** Parse an RDB file (plain or gzip-compressed) by path. */
export async function parseRdbFile(path: string, visitor: RdbVisitor, opts: RdbParseOptions = {}): Promise<RdbSummary> {
  const stream = createReadStream(path, { highWaterMark: FILE_CHUNK });
  try {
    return await parseRdb(stream, visitor, opts);
  } finally {
    stream.destroy();
  }
}

async function gunzipIfNeeded(source: AsyncIterator<Buffer>): Promise<AsyncIterator<Buffer>> {
  let first = await source.next();
  while (first.done !== true && first.value.length === 0) first = await source.next();
  if (first.done === true) return source;
  const head: Buffer = first.value;
  async function* replay(): AsyncGenerator<Buffer> {
    yield head;
    for (let next = await source.next(); next.done !== true; next = await source.next()) yield next.value;
  }
  // A one-byte first chunk cannot show the two magic bytes; RDBs start with 'R', so 0x1f alone is gzip's start.
  const gzip = head[0] === 0x1f && (head.length < 2 || head[1] === 0x8b);
  if (!gzip) return replay();
  const gunzip = createGunzip({ chunkSize: FILE_CHUNK });
  const feed = async (): Promise<void> => {
    try {
      for await (const chunk of replay()) {
        // Destroyed: the parser stopped (an error, or it is done); stop reading the source too.
        if (gunzip.destroyed) return;
        if (!gunzip.write(chunk)) {
          await new Promise<void>((resolve) => {
            // Whichever comes first; the other listener is removed, or they pile up one per chunk.
            const done = (): void => {
              gunzip.off('drain', done);
              gunzip.off('close', done);
              resolve();
            };
            gunzip.on('drain', done);
            gunzip.on('close', done);
          });
        }
      }
      gunzip.end();
    } catch (err) {
      gunzip.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  };
  void feed();
  return gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
}
