import { AppError } from '../../../../app/errors';
import { DistinctKeyTracker } from '../keyTracker';
import type { PreparedLoad } from '../prepareLoad';
import { openSource } from '../sources/openSource';
import type { CommandBatch, CommandSource, SourceOptions } from '../types';
import { InputGuard } from './inputGuard';

/** The input a load reads, with the key counter and the guard its source reports to. */
export interface LoadInput {
  source: CommandSource;
  /** Counts distinct keys to check DBSIZE against; merge counts none (the target keeps its keys). */
  tracker: DistinctKeyTracker | undefined;
  guard: InputGuard;
}

/**
 * Opens the input (see openSource and inputFile.ts) before anything on the
 * server changes, so a missing, unreadable or swapped file fails first.
 */
export async function openLoadInput(input: PreparedLoad): Promise<LoadInput> {
  const tracker = input.mode === 'merge' ? undefined : new DistinctKeyTracker();
  const guard = new InputGuard(tracker);
  const opts: SourceOptions = { file: input.fileLabel, format: input.format, tracker: guard };
  if (input.mapping !== undefined) opts.mapping = input.mapping;
  const source = await openSource(input, opts).catch((err: unknown) => {
    throw fileError(err, input.fileLabel);
  });
  return { source, tracker, guard };
}

/** stat/open errors of the input name the file as the user knows it, not our path. */
function fileError(err: unknown, label: string): unknown {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  if (code === 'ENOENT') return new AppError('NOT_FOUND', `The input file "${label}" no longer exists`);
  if (code === 'EACCES' || code === 'EPERM') return new AppError('VALIDATION', `The input file "${label}" cannot be read (permission denied)`);
  return err;
}

/** Batches read before the key table is sized for the whole file: enough to judge bytes per key. */
const RESERVE_AFTER_BATCHES = 2;
/** At most this many keys are reserved ahead (8 bytes a slot, two slots a key: 512 MB). */
const MAX_RESERVED_KEYS = 32_000_000;

/**
 * The source's batches, unchanged; after the first few, the distinct-key table
 * is sized for the file: its size times the distinct keys per byte read so far.
 * An estimate that falls short only means the table grows later, as it would have.
 */
export async function* reserveAhead(batches: AsyncIterable<CommandBatch>, tracker: DistinctKeyTracker, totalBytes: number | undefined): AsyncGenerator<CommandBatch> {
  let seen = 0;
  for await (const batch of batches) {
    if (++seen === RESERVE_AFTER_BATCHES && totalBytes !== undefined && batch.bytesRead > 0 && tracker.trackable) {
      // tracker.count runs ahead of this batch (the rest of its read chunk is parsed): records is the safer rate.
      const perByte = Math.min(tracker.count, batch.records) / batch.bytesRead;
      tracker.reserve(Math.min(MAX_RESERVED_KEYS, Math.ceil(perByte * totalBytes * 1.05)));
    }
    yield batch;
  }
}
