import { stat } from 'node:fs/promises';
import { AppError } from '../../../../app/errors';
import type { CommandSource, SourceOptions } from '../types';
import { fileBatches, type ReadOptions } from './fileBatches';

export { detectFormat, INPUT_FORMATS, unknownFormatMessage } from './detectFormat';
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
export async function openSource(path: string, opts: SourceOptions, read: ReadOptions = {}): Promise<CommandSource> {
  const info = await stat(path);
  if (!info.isFile()) throw new AppError('VALIDATION', `"${opts.file}" is not a regular file`);
  if (isTabular(opts.format) && opts.mapping === undefined) {
    throw new AppError('VALIDATION', `${opts.format} input needs a mapping (a key template, e.g. user:{id})`, 'mapping.key');
  }
  if (!isTabular(opts.format) && opts.mapping !== undefined) {
    throw new AppError('VALIDATION', `${opts.format} input is already commands; a mapping applies only to csv, tsv and ndjson`, 'mapping');
  }
  return {
    totalBytes: info.size,
    batches: (signal?: AbortSignal) => fileBatches(path, opts, read, signal),
  };
}
