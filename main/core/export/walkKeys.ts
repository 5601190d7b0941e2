import type { Cluster, Redis } from 'ioredis';
import type { ExportSource } from '../../../app/schemas/export';
import { prefixGlob } from '../redis/glob';
import { asArray, asBuf, asText } from '../keys';

/** SCAN COUNT: short calls on a busy server, few round trips on an idle one. */
const SCAN_COUNT = 500;
/** A selection's keys are read this many at a time. */
const SELECTION_BATCH = 100;

/**
 * The keys a source names, a batch at a time: a selection as given, a prefix or a glob by SCAN
 * MATCH on every master (one call in flight: the walk never holds more than a page). SCAN may
 * return a key twice (a rehash during the walk); the export then writes it twice, which a load
 * takes as setting it twice. Keys made during the walk may or may not be seen, as SCAN says.
 */
export async function* walkKeys(redis: Redis | Cluster, source: ExportSource, signal: AbortSignal): AsyncGenerator<Buffer[]> {
  if (source.kind === 'keys') {
    for (let i = 0; i < source.keys.length; i += SELECTION_BATCH) {
      yield source.keys.slice(i, i + SELECTION_BATCH).map((k) => Buffer.from(k, 'base64'));
    }
    return;
  }
  const match = source.kind === 'prefix' ? prefixGlob(Buffer.from(source.prefix, 'base64')) : Buffer.from(source.match, 'base64');
  const nodes = redis.isCluster ? (redis as Cluster).nodes('master') : [redis as Redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      signal.throwIfAborted();
      const [next, keys] = asArray(await node.callBuffer('SCAN', cursor, 'MATCH', match, 'COUNT', SCAN_COUNT));
      cursor = asText(next);
      const batch = asArray(keys).map((k) => asBuf(k) ?? Buffer.alloc(0));
      if (batch.length > 0) yield batch;
    } while (cursor !== '0');
  }
}
