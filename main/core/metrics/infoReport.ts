import type { NodeSample } from '../../../app/schemas/metrics';
import { deriveSample, downSample } from './derive';
import { discoverTopology } from './discovery';
import { fetchInfo, withTimeout } from './nodeInfo';
import { joinReplicaLinks } from './replicaLinks';
import type { PoolApi } from '../pool/types';

/** One node in `cacheboard info --json`: snake_case, null where a down node tells nothing. */
export interface InfoJsonNode {
  address: string;
  role: string | null;
  up: boolean;
  ops_per_sec: number | null;
  used_memory: number | null;
  maxmemory: number | null;
  connected_clients: number | null;
  master_link_status: string | null;
  replicas: { address: string; state: string; offset: number; lag_bytes: number }[] | null;
  rdb_bgsave_in_progress: boolean | null;
  rdb_last_bgsave_status: string | null;
  keyspace: Record<string, { keys: number; expires: number }> | null;
}

export interface InfoJson {
  nodes: InfoJsonNode[];
}

/** How long one node may take to answer, connect included is bounded by the pool's own timeouts. */
const NODE_TIMEOUT_MS = 5_000;

/**
 * One snapshot of the profile's node and every node discovered from it: a
 * single INFO ALL per node (the one discovery reads), in tree order. Rates
 * have no previous poll to compare with, so they are the server's own
 * instantaneous figures.
 */
export async function snapshotAll(pool: PoolApi, profileId: string): Promise<NodeSample[]> {
  const at = Date.now();
  const d = await discoverTopology(pool.address(profileId), (address) =>
    withTimeout(fetchInfo(pool, profileId, address, 'all'), NODE_TIMEOUT_MS, 'INFO ALL'),
  );
  const samples = d.nodes.map((n) =>
    n.sections === undefined ? downSample(n.address, at, n.error ?? 'unreachable') : deriveSample(n.address, at, n.sections).sample,
  );
  return joinReplicaLinks(samples, (a) => d.aliases.get(a) ?? a);
}

export function toInfoJson(samples: NodeSample[]): InfoJson {
  return {
    nodes: samples.map((s): InfoJsonNode => {
      const keyspace: Record<string, { keys: number; expires: number }> = {};
      for (const k of s.keyspace ?? []) keyspace[`db${k.db}`] = { keys: k.keys, expires: k.expires };
      return {
        address: s.address,
        role: s.role ?? null,
        up: s.up,
        ops_per_sec: s.traffic?.opsPerSec ?? null,
        used_memory: s.memory?.used ?? null,
        maxmemory: s.memory?.maxmemory ?? null,
        connected_clients: s.clients?.connected ?? null,
        master_link_status: s.replication?.masterLinkStatus ?? null,
        replicas:
          s.replication?.replicas.map((r) => ({ address: r.address, state: r.state, offset: r.offset, lag_bytes: r.lagBytes })) ??
          null,
        rdb_bgsave_in_progress: s.persistence?.rdbBgsaveInProgress ?? null,
        rdb_last_bgsave_status: s.persistence?.rdbLastBgsaveStatus ?? null,
        keyspace: s.up ? keyspace : null,
      };
    }),
  };
}
