import { AppError } from '../../../../app/errors';
import type { ServerFacts } from './serverFacts';

/** Redis' default `databases`, assumed when CONFIG GET is refused (SELECT then reports a DB that does not exist). */
const DEFAULT_DATABASES = 16;

/**
 * The DB a swap loads into: the one asked for, else a stale staging DB just
 * flushed (`cleaned`: so re-runs after crashes reuse one DB instead of piling
 * up beside each other), else the HIGHEST DB other than the target that holds
 * no keys and no other load is using, never DB 0. Applications use DB 0 by
 * default and low numbers next (SELECT 1, 2…): an application writing into the
 * staging DB mixes its keys with the load's, so the choice stays as far from
 * them as the server allows. INFO keyspace (read before the cleanup) lists
 * only non-empty DBs, with DBSIZE's counts; emptiness is checked again, in
 * one step with the claim, by claimStaging (stagingMarker.ts).
 */
export function chooseStagingDb(
  facts: Pick<ServerFacts, 'databases' | 'keyspace'>,
  opts: { targetDb: number; requested?: number; busy: Set<number>; address: string; cleaned?: readonly number[] },
): number {
  if (opts.requested !== undefined) return opts.requested;
  const reuse = (opts.cleaned ?? []).find((db) => db !== opts.targetDb && !opts.busy.has(db));
  if (reuse !== undefined) return reuse;
  const databases = facts.databases ?? DEFAULT_DATABASES;
  for (let db = databases - 1; db >= 1; db--) {
    if (db === opts.targetDb || opts.busy.has(db)) continue;
    if ((facts.keyspace.get(db)?.keys ?? 0) === 0) return db;
  }
  throw new AppError(
    'VALIDATION',
    `No empty DB to stage the load in on ${opts.address}: every one of its ${databases} databases other than ${opts.targetDb} (and DB 0, never chosen by default) holds keys or is used by another load. ` +
      'Empty one, or name one with --staging-db (and --force to flush it first)',
    'stagingDb',
  );
}

/** Refuses a non-empty staging DB unless forced (then the caller flushes it). */
export function checkStagingEmpty(db: number, keys: number, force: boolean, address: string): void {
  if (keys === 0 || force) return;
  throw new AppError(
    'VALIDATION',
    `Staging DB ${db} on ${address} holds ${keys} key${keys === 1 ? '' : 's'}: choose an empty DB, or pass --force to flush it first`,
    'stagingDb',
  );
}
