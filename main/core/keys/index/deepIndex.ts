import { AppError } from '../../../../app/errors';
import type { DeepPass } from './buildIndex';
import type { KeysReader } from './indexTargets';
import { DEEP_TYPES, type DeepColumns } from './deepColumns';
import { probeKeys } from './probeKeys';

/**
 * Keys a round of the deep pass probes per key a SCAN of the same pace would return: each key
 * costs three commands (TYPE, PTTL and MEMORY USAGE … SAMPLES 5), so 200 a round at full pace
 * (a hash without a key TTL on a server with hash-field expiration up to three more: its field check).
 */
const ROUND_PER_SCAN_KEY = 0.2;

/**
 * The deep index: every indexed name probed for type, TTL and memory, one round in flight, paced
 * by the build's pacers as its SCAN was (each round waits for them, and is as large as they
 * allow), so a folder or the whole keyspace sorts by TTL or memory without probing again. Needs
 * the names (not over budget). The figures are as of the pass: a key's TTL and memory move on
 * afterwards (Refresh rebuilds).
 */
export function deepPass(reader: KeysReader): DeepPass {
  return async (index, signal, progress, pace) => {
    const store = index.store;
    index.state.deep = true;
    if (store === null) throw new AppError('VALIDATION', 'The deep index needs the names, and they went over the memory budget', 'deep');
    const n = store.size;
    // A type byte and two 8-byte figures a key, within the indexes' shared memory budget.
    if (!index.reserveDeep(n * 17))
      throw new AppError('VALIDATION', "The deep index does not fit the key indexes' memory budget now: try again once other indexes are idle", 'deep');
    const cols: DeepColumns = { type: new Uint8Array(n), ttl: new Float64Array(n), memory: new Float64Array(n) };
    let from = 0;
    while (from < n && !signal.aborted) {
      await pace.gate(signal).catch((e: unknown) => {
        if (!signal.aborted) throw e;
      });
      if (signal.aborted) break;
      const round = Math.max(1, Math.round(pace.batchSize() * ROUND_PER_SCAN_KEY));
      const ids = [...Array(Math.min(round, n - from)).keys()].map((i) => from + i);
      // fieldTtls: the ttl column records a hash whose fields expire, so the no-TTL filter leaves it out.
      const probed = await probeKeys(
        reader,
        ids.map((id) => Buffer.from(store.name(id))),
        { memory: true, fieldTtls: true },
      );
      for (const [i, p] of probed.entries()) {
        const id = ids[i] as number;
        cols.type[id] = DEEP_TYPES.indexOf(p.type);
        cols.ttl[id] = p.type === null ? -2 : (p.ttlMs ?? -1);
        cols.memory[id] = p.memory ?? 0;
      }
      from += ids.length;
      index.state.deepDone = from;
      progress();
    }
    if (!signal.aborted) index.deep = cols;
  };
}
