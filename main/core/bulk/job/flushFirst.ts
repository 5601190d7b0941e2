import type { CommandBatch } from '../../resp/types';
import type { LoadLog } from './loadLog';
import { peekInput, refuseReplacement } from './replaceGuard';

/** Flush mode's target, one server's DB or every master of a cluster. */
export interface FlushTarget {
  /** The keys FLUSHDB would drop (a cluster: summed over its masters). */
  liveKeys(): Promise<number>;
  /** Told just before the first FLUSHDB: from here on the target is written. */
  writing(): void;
  flush(): Promise<void>;
  /** "The input has no commands, so the new DB": what an empty input would make. */
  newLabel: string;
  liveDb: number;
  allowEmpty: boolean;
  /** The warning once flushed: readers saw a partial dataset. */
  emptied: string;
}

/**
 * flush mode: FLUSHDB comes first, so an empty input, the one loss that can be
 * told before it (see peekInput), is refused while the live keys are still
 * there. Returns the batches, what was peeked included.
 */
export async function flushFirst(batches: AsyncIterable<CommandBatch>, target: FlushTarget, log: LoadLog): Promise<AsyncIterable<CommandBatch>> {
  const peeked = await peekInput(batches);
  if (peeked.empty) {
    const live = await target.liveKeys();
    log.report.keyCounts = { new: 0, live };
    refuseReplacement({ newKeys: 0, liveKeys: live, newLabel: target.newLabel, liveDb: target.liveDb, action: 'flush mode', allowEmpty: target.allowEmpty });
  }
  target.writing();
  await target.flush();
  log.warn(target.emptied);
  return peeked.batches;
}
