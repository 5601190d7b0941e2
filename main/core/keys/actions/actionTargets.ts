import type { PoolApi, ProfileSpec } from '../../pool/types';
import type { RawTarget } from '../../resp/rawTarget';
import { indexTargets } from '../index/indexTargets';
import { clusterRetry } from './clusterRetry';

/** Where a key-action run acts: every master holding keys of the DB, and on a cluster how a key that moved is retried. */
export interface ActionTargets {
  /** The masters, named by the run's connection name (known once the job starts). */
  targets: (connectionName: string) => RawTarget[];
  /** A cluster's keys that moved mid-run are retried through the cluster client (MOVED followed). */
  retry?: (key: Buffer, args: string[]) => Promise<unknown>;
}

/**
 * Asked before the run starts, so a wrong DB or an unreachable server fails the call itself. A
 * cluster's client for the retries is connected now too: its first retry may come in a
 * failover's window, when a new client's ready check (CLUSTER INFO) would find the cluster down.
 */
export async function actionTargets(pool: Pick<PoolApi, 'masters' | 'cluster'>, connectionId: string, spec: ProfileSpec, db: number): Promise<ActionTargets> {
  const targets = await indexTargets(pool, connectionId, spec, db);
  if (spec.topology?.kind !== 'cluster') return { targets };
  await pool.cluster(connectionId);
  return { targets, retry: clusterRetry(pool, connectionId) };
}
