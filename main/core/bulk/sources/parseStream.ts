import type { CommandBatch } from '../../resp/types';
import type { BatchSink } from './batchSink';

/** A format's parser: a push parser over byte chunks, writing commands into a BatchSink. */
export interface ChunkParser {
  /**
   * Consume the whole records at the start of `data` and return how many bytes
   * that was; the rest is offered again with more input appended. With `final`
   * the data is all the input left: consume it all or throw an InputError.
   * Throw before writing any part of a command: the batch in progress is
   * still sent when parsing fails.
   */
  parse(data: Buffer, final: boolean): number;
  /** After the final parse: write anything held back (a key group still open). */
  finish(): void;
  /** Records consumed so far. */
  readonly records: number;
}

export interface ParseStreamOptions {
  signal?: AbortSignal | undefined;
  /** Text formats: a UTF-8 byte order mark at the start is not data. */
  skipBom?: boolean;
}

const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Drive a ChunkParser over a stream of chunks and yield its batches.
 *
 * A record split across chunks is left unconsumed and offered again joined
 * with the next chunk. To keep a huge record (a 100 MB bulk string) from
 * being re-scanned at every 1 MiB chunk, the leftover is only re-parsed once
 * the buffered input has doubled since the last try: total work stays linear.
 *
 * When the parser throws, the commands before the malformed spot (the batch
 * in progress, an open key group) are still yielded, then the error is
 * rethrown: a preview shows the rows before the error, and a load stops
 * exactly there.
 */
export async function* parseStream(
  input: AsyncIterable<Buffer>,
  parser: ChunkParser,
  sink: BatchSink,
  options: ParseStreamOptions = {},
): AsyncGenerator<CommandBatch> {
  let parts: Buffer[] = [];
  let buffered = 0;
  let need = options.skipBom ? BOM.length : 1;
  let base = 0;
  let first = true;

  // Returns an error to rethrow once the caller has yielded the partial batch.
  const step = (final: boolean): { error: unknown } | undefined => {
    let data = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, buffered);
    if (first) {
      first = false;
      if (options.skipBom && data[0] === BOM[0] && data[1] === BOM[1] && data[2] === BOM[2]) {
        data = data.subarray(BOM.length);
        base = BOM.length;
      }
    }
    sink.base = base;
    try {
      const consumed = parser.parse(data, final);
      if (final) parser.finish();
      base += consumed;
      const rest = data.subarray(consumed);
      parts = rest.length > 0 ? [rest] : [];
      buffered = rest.length;
      need = Math.max(1, 2 * rest.length);
      if (final) sink.cut();
      return undefined;
    } catch (error) {
      // Parsers throw between commands, so what they hold back (a key group) is whole: send it too.
      try {
        parser.finish();
      } catch {
        // The first error is the one to report.
      }
      sink.cut();
      return { error };
    }
  };

  for await (const chunk of input) {
    options.signal?.throwIfAborted();
    if (chunk.length === 0) continue;
    parts.push(chunk);
    buffered += chunk.length;
    if (buffered < need) continue;
    const failed = step(false);
    yield* ready(sink, options.signal);
    if (failed) throw failed.error;
  }
  options.signal?.throwIfAborted();
  const failed = step(true);
  yield* ready(sink, options.signal);
  if (failed) throw failed.error;
}

/**
 * The sink's batches, the signal checked before each: a KeyTracker may abort
 * while a chunk is parsed (a SELECT in the input), and then no batch of that
 * chunk may leave, not even those before the command.
 */
function* ready(sink: BatchSink, signal: AbortSignal | undefined): Generator<CommandBatch> {
  for (const batch of sink.drain()) {
    signal?.throwIfAborted();
    yield batch;
  }
}
