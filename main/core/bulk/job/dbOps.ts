import type { Redis } from 'ioredis';
import { flushArgs } from './preflight';

/*
 * FLUSHDB and DBSIZE act on the connection's selected DB, so each helper
 * SELECTs first, on the load's own control connection (never a shared one,
 * where a SELECT would leak into other callers' commands). SELECT and the
 * command are separate awaits, not one MULTI: inside EXEC a failed SELECT
 * would not stop the FLUSHDB, which would then hit whatever DB was selected.
 */

export async function flushDb(redis: Redis, db: number, version: string): Promise<void> {
  await redis.select(db);
  if (flushArgs(version).length > 0) await redis.flushdb('ASYNC');
  else await redis.flushdb();
}

export async function dbSize(redis: Redis, db: number): Promise<number> {
  await redis.select(db);
  return redis.dbsize();
}
