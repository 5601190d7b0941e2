import { AppError } from '../../../../app/errors';
import type { CommandBatch } from '../../resp/types';

/** What a load that replaces a DB is about to do, in keys. */
export interface Replacement {
  /** Keys the new DB holds (swap: staging DBSIZE; flush: 0, for an input with no commands). */
  newKeys: number;
  /** Keys the live DB holds now (DBSIZE). */
  liveKeys: number;
  /** "Staging DB 1", "The input": the subject of the message. */
  newLabel: string;
  liveDb: number;
  /** "the swap", "flush mode". */
  action: string;
  allowEmpty: boolean;
  /** Undefined: not checked (flush learns the new count only after its FLUSHDB). */
  maxShrink?: number;
}

const keys = (n: number): string => `${n} key${n === 1 ? '' : 's'}`;

/**
 * Refuses to replace a live DB that holds keys with an empty one, or (with
 * maxShrink) with one that has lost more than maxShrink percent of its keys,
 * unless allowEmpty says so. An empty file, a CSV with only its header or an
 * export cut short all load "successfully" and, swapped in, wipe the live
 * data; a much smaller dataset is the same mistake caught halfway. Throws
 * VALIDATION naming `allowEmpty`, the one option that lets both through.
 */
export function refuseReplacement(r: Replacement): void {
  if (r.allowEmpty || r.liveKeys === 0) return;
  const both = `${r.newLabel} holds ${keys(r.newKeys)} and the live DB ${r.liveDb} holds ${keys(r.liveKeys)}`;
  if (r.newKeys === 0) {
    throw new AppError(
      'VALIDATION',
      `${both}: ${r.action} would empty DB ${r.liveDb}. Refused, nothing was replaced; pass --allow-empty (on the page: "Allow an empty or much smaller DB") to replace it anyway`,
      'allowEmpty',
    );
  }
  if (r.maxShrink === undefined) return;
  const shrink = ((r.liveKeys - r.newKeys) * 100) / r.liveKeys;
  if (shrink <= r.maxShrink) return;
  const pct = Math.ceil(shrink);
  throw new AppError(
    'VALIDATION',
    `${both}: ${r.action} would drop ${pct}% of its keys, more than the ${r.maxShrink}% --max-shrink allows. Refused, nothing was replaced; pass --max-shrink ${pct} or --allow-empty (on the page: "Allow an empty or much smaller DB") to replace it anyway`,
    'allowEmpty',
  );
}

/**
 * Reads the input up to its first command, to tell an empty input (an empty
 * file, a CSV with only its header, blank lines) before anything is flushed:
 * flush mode's FLUSHDB comes first, so this is the only moment its guard can
 * act. What was read is handed on unchanged in `batches`.
 */
export async function peekInput(batches: AsyncIterable<CommandBatch>): Promise<{ empty: boolean; batches: AsyncIterable<CommandBatch> }> {
  const it = batches[Symbol.asyncIterator]();
  const read: CommandBatch[] = [];
  let done = false;
  while (!done && !read.some((b) => b.count > 0)) {
    const next = await it.next();
    if (next.done === true) done = true;
    else read.push(next.value);
  }
  async function* replay(): AsyncGenerator<CommandBatch> {
    try {
      yield* read;
      if (done) return;
      for (let next = await it.next(); next.done !== true; next = await it.next()) yield next.value;
    } finally {
      // The consumer stopped early (a failed load): let the source close its file.
      if (!done) await it.return?.();
    }
  }
  return { empty: !read.some((b) => b.count > 0), batches: replay() };
}
