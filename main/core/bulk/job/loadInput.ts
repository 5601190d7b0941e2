import { DistinctKeyTracker } from '../../resp/keyTracker';
import type { PreparedLoad } from '../prepareLoad';
import { MSET_PAIRS } from '../sources/msetRun';
import { openSource } from '../sources/openSource';
import type { CommandBatch } from '../../resp/types';
import type { CommandSource, SourceOptions } from '../types';
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
 * `multiSet`: string rows without a ttl may go as MSETs (one server, not a
 * cluster, where an MSET's keys must share a slot).
 */
export async function openLoadInput(input: PreparedLoad, multiSet = false): Promise<LoadInput> {
  const tracker = input.mode === 'merge' ? undefined : new DistinctKeyTracker();
  const guard = new InputGuard(tracker);
  const opts: SourceOptions = { file: input.fileLabel, format: input.format, tracker: guard };
  if (multiSet) opts.msetPairs = msetPairs();
  if (input.mapping !== undefined) opts.mapping = input.mapping;
  // openInputFile already names a missing or unreadable file by its label.
  const source = await openSource(input, opts);
  return { source, tracker, guard };
}

/**
 * The source's batches, then the distinct keys counted as soon as the last batch is handed to
 * the pipe: the server is still running the commands in flight (up to the pipe's window), so
 * the count (~15 ms at 1M keys) overlaps them instead of waiting for their replies and then
 * holding up the verification. Not after a stop: the generator is returned early then.
 */
export async function* countedWhenRead(batches: AsyncIterable<CommandBatch>, tracker: DistinctKeyTracker | undefined): AsyncIterable<CommandBatch> {
  yield* batches;
  tracker?.countNow();
}

/**
 * Pairs per MSET: MSET_PAIRS, or CACHEBOARD_MSET_PAIRS (0 = a SET per row),
 * an undocumented knob for the bulk bench's A/B runs, not a user setting.
 */
function msetPairs(): number {
  const v = Number(process.env['CACHEBOARD_MSET_PAIRS'] ?? MSET_PAIRS);
  return Number.isSafeInteger(v) && v >= 0 ? v : MSET_PAIRS;
}
