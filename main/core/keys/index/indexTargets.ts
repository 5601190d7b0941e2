import type { Cluster, Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import { requireDbZero } from '../../pool/topology';
import type { PoolApi, ProfileSpec } from '../../pool/types';
import { connectionFor, type RawTarget } from '../../resp/rawTarget';

/**
 * Every server holding a share of the DB's keys: a cluster's masters serving slots, or one
 * server (a sentinel profile's master as the sentinels name it now). Asked before a build
 * starts, so a wrong DB or an unreachable cluster fails the call itself. Returns raw targets
 * named by the build's connection name (known once the job starts).
 */
export async function indexTargets(
  pool: Pick<PoolApi, 'masters'>,
  connectionId: string,
  spec: ProfileSpec,
  db: number,
): Promise<(connectionName: string) => RawTarget[]> {
  const cluster = spec.topology?.kind === 'cluster';
  if (cluster) requireDbZero(db);
  const masters = await pool.masters(connectionId);
  if (masters.length === 0) throw new AppError('UNREACHABLE', `"${spec.name}": no healthy master serves the DB; nothing to index`);
  return (name) => masters.map((m) => connectionFor(m.spec, cluster ? 0 : db, name));
}

/** What the find and folder calls read through: SCAN per master, single-key commands routed. */
export interface KeysReader {
  /** One client per master, in a stable order (a scan cursor names one by its place). */
  masters(): Promise<Redis[]>;
  /** Where a single-key command goes: the server, or the cluster client that routes it by slot. */
  keyed(): Promise<Redis | Cluster>;
}

/** The pooled connections of a profile (the session's connection id) on `db`. */
export function keysReader(pool: Pick<PoolApi, 'shared' | 'cluster'>, connectionId: string, spec: ProfileSpec, db: number): KeysReader {
  if (spec.topology?.kind === 'cluster') {
    requireDbZero(db);
    return {
      masters: async () => {
        const nodes = (await pool.cluster(connectionId)).nodes('master');
        const at = (r: Redis) => `${r.options.host ?? ''}:${r.options.port ?? 0}`;
        return nodes.sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
      },
      keyed: () => pool.cluster(connectionId),
    };
  }
  return { masters: async () => [await pool.shared(connectionId, db)], keyed: () => pool.shared(connectionId, db) };
}
