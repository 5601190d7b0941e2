import { openInputFile, type InputFile } from '../inputFile';
import type { SourceOptions } from '../types';
import type { CommandBatch } from '../../resp/types';
import { BatchSink } from './batchSink';
import { commandsParser } from './commandsSource';
import { csvParser } from './csvSource';
import { keysCsvParser } from './keysCsvSource';
import { keysNdjsonParser } from './keysNdjsonSource';
import { ndjsonParser } from './ndjsonSource';
import { parseStream, type ChunkParser } from './parseStream';
import { respParser } from './respSource';
import type { SourceHooks } from './sourceHooks';

/** Read size: with large reads, per-chunk costs (and re-joining a record split between two) vanish. */
export const READ_CHUNK_BYTES = 1 << 20;

/** Knobs for previews and tests; a load uses the defaults. */
export interface ReadOptions extends SourceHooks {
  /** fs read size (the stream's highWaterMark). */
  chunkBytes?: number;
}

/**
 * A file streamed through its format's parser, as batches. Never holds the whole file.
 * Read through the descriptor openInputFile checked, never by path again.
 */
export async function* fileBatches(file: string | InputFile, opts: SourceOptions, read: ReadOptions = {}, signal?: AbortSignal): AsyncGenerator<CommandBatch> {
  const sink = new BatchSink(opts.batchBytes);
  const parser = makeParser(opts, sink, read);
  const { handle } = await openInputFile(file, opts.file);
  // autoClose (the default): the handle closes with the stream.
  const stream = handle.createReadStream({ highWaterMark: read.chunkBytes ?? READ_CHUNK_BYTES });
  try {
    yield* parseStream(stream as AsyncIterable<Buffer>, parser, sink, { signal, skipBom: opts.format !== 'resp' });
  } finally {
    stream.destroy();
  }
}

/** The parser for a format, writing into sink. */
export function makeParser(opts: SourceOptions, sink: BatchSink, hooks: SourceHooks = {}): ChunkParser {
  switch (opts.format) {
    case 'resp':
      return respParser(opts, sink);
    case 'commands':
      return commandsParser(opts, sink);
    case 'csv':
    case 'tsv':
      return csvParser(opts, sink, hooks);
    case 'ndjson':
      return ndjsonParser(opts, sink, hooks);
    case 'keys-ndjson':
      return keysNdjsonParser(opts, sink);
    case 'keys-csv':
      return keysCsvParser(opts, sink);
  }
}
