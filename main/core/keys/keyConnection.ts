import type { Cluster, Redis } from 'ioredis';
import { requireDbZero } from '../pool/topology';
import type { PoolApi, ProfileSpec } from '../pool/types';

/**
 * The connection one key's commands run on: the pooled Cluster on a cluster (it routes each
 * single-key command, and a one-key script, by slot; DB 0 only), else the shared client of
 * (connection, db), which follows a sentinel set's master. Reads, decodes and edits share it.
 */
export async function keyConnection(pool: Pick<PoolApi, 'shared' | 'cluster'>, connectionId: string, spec: ProfileSpec, db: number): Promise<Redis | Cluster> {
  if (spec.topology?.kind === 'cluster') {
    requireDbZero(db);
    return pool.cluster(connectionId);
  }
  return pool.shared(connectionId, db);
}
