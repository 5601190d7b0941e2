import { hostname } from 'node:os';
import type { Redis } from 'ioredis';

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
   */
  phase: 'loading' | 'old-data';
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
  if (m.phase !== 'loading' && m.phase !== 'old-data') return undefined;
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

export async function writeMarker(redis: Redis, db: number, m: StagingMarker): Promise<string> {
  const text = markerText(m);
  await redis.select(db);
  await redis.set(STAGING_MARKER_KEY, text);
  return text;
}
