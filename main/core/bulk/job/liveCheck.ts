import type { Redis } from 'ioredis';
import type { LoadReport } from '../../../../app/schemas/bulk';
import { dbSize } from './dbOps';

/** Keys sampled from the live DB before a swap load, to look for again after it. */
export const LIVE_SAMPLE = 16;

export interface LiveSnapshot {
  db: number;
  keys: number;
  sample: Buffer[];
}

export type LiveCheck = NonNullable<LoadReport['liveCheck']>;

/**
 * DBSIZE of the live DB and up to LIVE_SAMPLE distinct keys of it, picked by
 * RANDOMKEY (O(1), unlike SCAN, and spread over the whole keyspace). Taken
 * before the load writes anything, so that "the live DB is untouched" is a
 * measurement afterwards, not an assumption: a swap load never writes there,
 * but Redis may evict from it (maxmemory) and other clients may write to it.
 */
export async function snapshotLive(redis: Redis, db: number): Promise<LiveSnapshot> {
  const keys = await dbSize(redis, db);
  const seen = new Map<string, Buffer>();
  // RANDOMKEY may return the same key twice: a few extra tries, bounded, for a small DB.
  for (let i = 0; i < LIVE_SAMPLE * 2 && seen.size < Math.min(LIVE_SAMPLE, keys); i++) {
    const key = await redis.randomkeyBuffer();
    if (key === null) break;
    seen.set(key.toString('hex'), key);
  }
  return { db, keys, sample: [...seen.values()] };
}

/** The live DB again: DBSIZE, and which sampled keys are gone (EXISTS, one call). */
export async function checkLive(redis: Redis, before: LiveSnapshot): Promise<LiveCheck> {
  const keysAfter = await dbSize(redis, before.db);
  const present = before.sample.length === 0 ? 0 : await redis.exists(...before.sample);
  const missing = before.sample.length - present;
  return {
    db: before.db,
    keysBefore: before.keys,
    keysAfter,
    sampled: before.sample.length,
    missing,
    unchanged: keysAfter === before.keys && missing === 0,
  };
}

/** The sentence a report gives about the live DB after a load that did not switch. */
export function describeLive(c: LiveCheck): string {
  const sampled =
    c.sampled === 0
      ? ''
      : c.missing === 0
        ? `, the ${c.sampled} keys sampled before all still there`
        : `, and ${c.missing} of the ${c.sampled} keys sampled before are gone`;
  if (c.unchanged) return `DB ${c.db} is untouched (checked: ${c.keysBefore} keys before and after${sampled})`;
  return `DB ${c.db} CHANGED during the load: it held ${c.keysBefore} keys before and holds ${c.keysAfter} now${sampled}. This load never writes it: evictions or other clients did`;
}
