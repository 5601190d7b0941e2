import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { serverIdentity } from '../../redis/serverIdentity';
import type { Refusal } from '../../redis/refusal';
import { commandRefusal } from './commandRefusal';
import { flushArgs } from './preflight';
import { dbKeyCounts } from './serverFacts';
import { STAGING_MARKER_KEY, parseMarker, readMarkerRaw, type StagingMarker } from './stagingMarker';
import { otherLoads } from './targetLock';
import { pidAlive } from '../../jobs/pidAlive';

/** A DB holding our staging marker (stagingMarker.ts). */
export interface StampedDb {
  db: number;
  /** DBSIZE, the marker included. */
  keys: number;
  marker: StagingMarker;
  /** The marker's exact value: the flush happens only while the DB still holds this one. */
  raw: string;
  /**
   * yes: the load's named connection is open (or it runs in this process).
   * no: it is not; the DB is stale. unknown: CLIENT LIST is refused and the
   * load ran on another host, or its pid is alive here: never flushed.
   */
  running: 'yes' | 'no' | 'unknown';
}

/**
 * Every DB of the server holding our marker, and whether its load still runs.
 * Markers are read before CLIENT LIST: a load names its connection before it
 * stamps its DB (loadJob.ts), so a marker whose load is missing from the list
 * read afterwards belongs to a load that is over. `redis` must be a connection
 * of the caller's own (it is SELECTed).
 */
export async function findStampedDbs(
  redis: Redis,
  where: { host: string; port: number },
): Promise<{ dbs: StampedDb[]; version: string; warning?: string; infoRefused?: Refusal }> {
  const { counts, info, refused } = await dbKeyCounts(redis);
  // The checks made of it (FLUSHDB ASYNC) are of a Redis feature: redis_version, which Valkey keeps.
  const version = info['server'] === undefined ? '' : serverIdentity(info['server']).redisVersion;
  const found: Omit<StampedDb, 'running'>[] = [];
  const also = refused === undefined ? {} : { infoRefused: refused };
  for (const [db, keys] of [...counts].sort((a, b) => a[0] - b[0])) {
    if (keys === 0) continue;
    const raw = await readMarkerRaw(redis, db);
    const marker = parseMarker(raw);
    if (marker !== undefined && raw !== null) found.push({ db, keys, marker, raw });
  }
  if (found.length === 0) return { dbs: [], version, ...also };
  const { loads, warning } = await otherLoads(redis, { host: where.host, port: where.port, jobId: '' });
  const here = hostname();
  const dbs = found.map((f): StampedDb => {
    if (loads.some((l) => l.jobId === f.marker.jobId)) return { ...f, running: 'yes' };
    if (warning === undefined) return { ...f, running: 'no' };
    // CLIENT LIST refused: only a load of this host whose process is gone is known to be over.
    return { ...f, running: f.marker.host === here && !pidAlive(f.marker.pid) ? 'no' : 'unknown' };
  });
  return warning === undefined ? { dbs, version, ...also } : { dbs, version, warning, ...also };
}

/**
 * FLUSHDB (ASYNC where the server has it) of `db`, only while its marker is
 * still `raw`: WATCH makes the check and the flush one step against any other
 * client (a load that finished and emptied it, a new load that stamped it with
 * its own marker). A Lua script cannot FLUSHDB, hence WATCH/MULTI. Returns
 * whether the flush happened. `redis` must be a connection of the caller's own.
 */
export async function flushIfMarked(redis: Redis, db: number, raw: string, version: string): Promise<boolean> {
  await redis.select(db);
  await redis.watch(STAGING_MARKER_KEY);
  let now: string | null;
  try {
    now = await redis.get(STAGING_MARKER_KEY);
  } catch (err) {
    await redis.unwatch();
    if (commandRefusal(err) !== undefined || (err instanceof Error && /WRONGTYPE/.test(err.message))) return false;
    throw err;
  }
  if (now !== raw) {
    await redis.unwatch();
    return false;
  }
  const tx = redis.multi();
  if (flushArgs(version).length > 0) tx.flushdb('ASYNC');
  else tx.flushdb();
  const res = await tx.exec();
  return res !== null;
}

/** What a cleanup flushed, for the CLI's stderr, the audit log and the Bulk load page. */
export interface CleanedDb {
  db: number;
  keys: number;
  jobId: string;
  host: string;
  startedAt: number;
  phase: Exclude<StagingMarker['phase'], 'held'>;
}

export function describeCleaned(c: CleanedDb, address: string, now = Date.now()): string {
  const age = Math.max(0, Math.round((now - c.startedAt) / 1000));
  const what = c.phase === 'old-data' ? 'the data a swap replaced' : 'a partial load';
  return `Flushed stale staging DB ${c.db} on ${address} (${c.keys} keys, ${what}) left by load ${c.jobId} from ${c.host}, started ${age} s ago`;
}

/**
 * Flush every stamped DB whose load is over (running: 'no'), each only while
 * its marker still matches. A DB without our marker is never touched, nor one
 * a load left held (other clients' keys in it): the user flushes that one.
 */
export async function cleanStaleStaging(
  redis: Redis,
  where: { host: string; port: number },
): Promise<{ cleaned: CleanedDb[]; left: StampedDb[]; warning?: string }> {
  const { dbs, version, warning } = await findStampedDbs(redis, where);
  const cleaned: CleanedDb[] = [];
  const left: StampedDb[] = [];
  for (const d of dbs) {
    const phase = d.marker.phase;
    if (d.running === 'no' && phase !== 'held' && (await flushIfMarked(redis, d.db, d.raw, version))) {
      cleaned.push({ db: d.db, keys: d.keys, jobId: d.marker.jobId, host: d.marker.host, startedAt: d.marker.startedAt, phase });
    } else {
      left.push(d);
    }
  }
  return warning === undefined ? { cleaned, left } : { cleaned, left, warning };
}
