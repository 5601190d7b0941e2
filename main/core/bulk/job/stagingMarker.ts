import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { commandRefusal } from './commandRefusal';

/**
 * The key a swap load writes into its staging DB before any data, so that a
 * staging DB left by a crash can be told from a user's DB: a DB is only ever
 * flushed by a cleanup when it holds this key with a value that parses as ours
 * (parseMarker). The key is persistent (no TTL): a TTL running out would make
 * a crashed load's DB look like a user's one and leak it forever. Whether the
 * load is still running comes from its named connections (targetLock.ts), not
 * from the marker. The marker never goes live: the swap deletes it in the same
 * MULTI as SWAPDB (swapStaging.ts).
 */
export const STAGING_MARKER_KEY = '__cacheboard:staging-marker__';

export interface StagingMarker {
  app: 'cacheboard';
  jobId: string;
  /** os.hostname() and pid of the process that ran the load. */
  host: string;
  pid: number;
  /** Epoch ms the load stamped the DB. */
  startedAt: number;
  targetDb: number;
  /**
   * loading: the DB holds the load's new data, partial or whole.
   * old-data: SWAPDB happened; the DB holds the previous live data, to be flushed.
   * held: the load failed and left the DB as it was, because it holds keys the
   * load did not write (or cannot tell): never flushed by a cleanup, only by
   * the user once they have looked (the report gives the command).
   */
  phase: 'loading' | 'old-data' | 'held';
}

export function newMarker(jobId: string, targetDb: number): StagingMarker {
  return { app: 'cacheboard', jobId, host: hostname(), pid: process.pid, startedAt: Date.now(), targetDb, phase: 'loading' };
}

export function markerText(m: StagingMarker): string {
  return JSON.stringify(m);
}

/** The marker a value holds, or undefined when it is not one of ours (a user's key of that name). */
export function parseMarker(raw: string | null | undefined): StagingMarker | undefined {
  if (typeof raw !== 'string') return undefined;
  let o: unknown;
  try {
    o = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof o !== 'object' || o === null) return undefined;
  const m = o as Record<string, unknown>;
  if (m.app !== 'cacheboard' || typeof m.jobId !== 'string' || typeof m.host !== 'string') return undefined;
  if (typeof m.pid !== 'number' || typeof m.startedAt !== 'number' || typeof m.targetDb !== 'number') return undefined;
  if (m.phase !== 'loading' && m.phase !== 'old-data' && m.phase !== 'held') return undefined;
  return { app: 'cacheboard', jobId: m.jobId, host: m.host, pid: m.pid, startedAt: m.startedAt, targetDb: m.targetDb, phase: m.phase };
}

/** The marker's raw value in `db` (SELECTs it, on a connection of the caller's own); null when absent or not a string. */
export async function readMarkerRaw(redis: Redis, db: number): Promise<string | null> {
  await redis.select(db);
  try {
    return await redis.get(STAGING_MARKER_KEY);
  } catch (err) {
    // WRONGTYPE: a user's key of that name, not ours.
    if (err instanceof Error && /WRONGTYPE/.test(err.message)) return null;
    throw err;
  }
}

/**
 * Sets the marker only while the DB holds no key, in one step: a Lua script
 * runs atomically, so no other client's write can land between the DBSIZE and
 * the SET (a check, then a SET from here, would leave that window open). The
 * script runs in the DB the connection has SELECTed. Returns 0 when claimed,
 * else the DB's key count (nothing written).
 */
const CLAIM_SCRIPT = `local n = redis.call('DBSIZE')
if n == 0 then redis.call('SET', KEYS[1], ARGV[1]) end
return n`;

export type StagingClaim = { claimed: true; raw: string } | { claimed: false; keys: number };

/**
 * Claims `db` for a load: the marker written only into an empty DB. Where
 * scripts are refused (an ACL without @scripting, a managed service), the
 * marker is SET first and DBSIZE read after: any other key then present was
 * there before or came since, and the claim is withdrawn (our marker deleted,
 * nothing else touched). `flushFirst` (--force on a non-empty DB): FLUSHDB and
 * the marker in one MULTI, so that nothing lands between them either.
 */
export async function claimStaging(redis: Redis, db: number, m: StagingMarker, opts: { flushFirst: boolean; async: boolean }): Promise<StagingClaim> {
  const text = markerText(m);
  await redis.select(db);
  if (opts.flushFirst) {
    const tx = redis.multi();
    if (opts.async) tx.flushdb('ASYNC');
    else tx.flushdb();
    tx.set(STAGING_MARKER_KEY, text);
    const replies = await tx.exec();
    const failed = replies?.find(([err]) => err !== null)?.[0];
    if (replies === null || failed !== undefined) throw failed ?? new Error('FLUSHDB and the staging marker: the transaction was discarded');
    return { claimed: true, raw: text };
  }
  let keys: number;
  try {
    keys = Number(await redis.eval(CLAIM_SCRIPT, 1, STAGING_MARKER_KEY, text));
  } catch (err) {
    if (commandRefusal(err) === undefined) throw err;
    await redis.set(STAGING_MARKER_KEY, text);
    const after = await redis.dbsize();
    if (after <= 1) return { claimed: true, raw: text };
    if ((await readMarkerRaw(redis, db)) === text) await redis.del(STAGING_MARKER_KEY);
    return { claimed: false, keys: after - 1 };
  }
  return keys === 0 ? { claimed: true, raw: text } : { claimed: false, keys };
}
