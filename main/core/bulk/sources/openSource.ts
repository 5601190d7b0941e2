import { AppError } from '../../../../app/errors';
import { openInputFile, type InputFile } from '../inputFile';
import type { CommandSource, SourceOptions } from '../types';
import { fileBatches, type ReadOptions } from './fileBatches';

export { detectFormat, formatOf, INPUT_FORMATS, unknownFormatMessage } from './detectFormat';
export { previewSource, type SourcePreview } from './previewSource';

/** csv, tsv and ndjson are records that a mapping turns into commands; resp and commands already are commands. */
export function isTabular(format: SourceOptions['format']): boolean {
  return format === 'csv' || format === 'tsv' || format === 'ndjson';
}

/**
 * A file as a CommandSource: streamed in chunks, parsed per format, yielded
 * as batches of RESP. Each batches() call reads the file afresh. Checks what
 * it can up front (a regular file; a mapping exactly for tabular formats);
 * malformed content surfaces as an InputError from the iteration.
 */
export async function openSource(file: string | InputFile, opts: SourceOptions, read: ReadOptions = {}): Promise<CommandSource> {
  // Checked now so a missing, linked or swapped file fails before anything on the server
  // changes; every batches() call opens it again under the same checks.
  const { handle, size } = await openInputFile(file, opts.file);
  await handle.close();
  if (isTabular(opts.format) && opts.mapping === undefined) {
    throw new AppError('VALIDATION', `${opts.format} input needs a mapping (a key template, e.g. user:{id})`, 'mapping.key');
  }
  if (!isTabular(opts.format) && opts.mapping !== undefined) {
    throw new AppError('VALIDATION', `${opts.format} input is already commands; a mapping applies only to csv, tsv and ndjson`, 'mapping');
  }
  return {
    totalBytes: size,
    batches: (signal?: AbortSignal) => fileBatches(file, opts, read, signal),
  };
}
