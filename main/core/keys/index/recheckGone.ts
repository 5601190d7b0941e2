import type { KeysReader } from './indexTargets';
import type { KeyIndex } from './keyIndex';
import { matchingIds } from './listKeys';
import { probeKeys } from './probeKeys';

/** Names checked a round: one pipelined batch of TYPE per round, one round in flight. */
const ROUND = 1000;

/**
 * After a bulk action on keys matching `match`: each matching name the index holds is checked
 * (TYPE: 'none' is gone), a round at a time, and the gone ones are taken out of the index, so
 * its counts and lists are the DB's again without a new scan of every key. Only the names the
 * glob reaches are read (those under its literal prefix's folder), whatever filters the action
 * had: a key it skipped is still there and stays. Returns how many were taken out.
 */
export async function recheckGone(index: KeyIndex, match: Buffer, reader: KeysReader): Promise<number> {
  const store = index.store;
  if (store === null) return 0;
  const ids = matchingIds(index, match);
  const gone: number[] = [];
  for (let i = 0; i < ids.length; i += ROUND) {
    const part = ids.slice(i, i + ROUND);
    const probed = await probeKeys(
      reader,
      part.map((id) => Buffer.from(store.name(id))),
      { ttl: false },
    );
    probed.forEach((p, j) => {
      if (p.type === null) gone.push(part[j] as number);
    });
  }
  // Taken out at the end, in one pass per folder: a page read meanwhile sees the index as it was.
  index.removeMany(gone);
  return gone.length;
}
