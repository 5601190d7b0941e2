import { AppError } from '../../../../app/errors';
import type { KeysReader } from './indexTargets';
import type { KeyIndex } from './keyIndex';
import { DEEP_TYPES, type DeepColumns } from './deepColumns';
import { probeKeys } from './probeKeys';

/** Keys a round of the deep pass probes: TYPE, PTTL and MEMORY USAGE … SAMPLES 5 each, one round in flight. */
const ROUND = 200;

/**
 * The deep index: every indexed name probed for type, TTL and memory, a round of 200 keys at a
 * time (one round in flight, as the SCAN was paced), so a folder or the whole keyspace sorts by
 * TTL or memory without probing again. Needs the names (not over budget). The figures are as of
 * the pass: a key's TTL and memory move on afterwards (Refresh rebuilds).
 */
export function deepPass(reader: KeysReader): (index: KeyIndex, signal: AbortSignal, progress: () => void) => Promise<void> {
  return async (index, signal, progress) => {
    const store = index.store;
    index.state.deep = true;
    if (store === null) throw new AppError('VALIDATION', 'The deep index needs the names, and they went over the memory budget', 'deep');
    const n = store.size;
    const cols: DeepColumns = { type: new Uint8Array(n), ttl: new Float64Array(n), memory: new Float64Array(n) };
    for (let from = 0; from < n && !signal.aborted; from += ROUND) {
      const ids = [...Array(Math.min(ROUND, n - from)).keys()].map((i) => from + i);
      const probed = await probeKeys(reader, ids.map((id) => Buffer.from(store.name(id))), { memory: true });
      for (const [i, p] of probed.entries()) {
        const id = ids[i] as number;
        cols.type[id] = DEEP_TYPES.indexOf(p.type);
        cols.ttl[id] = p.type === null ? -2 : (p.ttlMs ?? -1);
        cols.memory[id] = p.memory ?? 0;
      }
      index.state.deepDone = Math.min(n, from + ROUND);
      progress();
    }
    if (!signal.aborted) index.deep = cols;
  };
}
