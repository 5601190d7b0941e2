import { AppError } from '../../../app/errors';
import { inShardOrder } from '../pool/shardOrder';
import type { PoolApi } from '../pool/types';

export interface MonitorNode {
  address: string;
  role: string;
  up: boolean;
  /** Replicas: their master's address. */
  master?: string;
}

/**
 * Every node of a cluster MONITOR can watch, masters and replicas alike, as
 * CLUSTER NODES lists them: each master (by address) followed by its replicas,
 * so a shard reads as one group. MONITOR on a node shows only what that node
 * runs: a master its slots' commands, a replica the stream it replicates.
 */
export async function clusterMonitorNodes(pool: Pick<PoolApi, 'nodes'>, profileId: string): Promise<MonitorNode[]> {
  const all = (await pool.nodes(profileId)).filter((n) => n.role !== 'sentinel' && n.address !== '');
  return inShardOrder(all).map((n) => ({ address: n.address, role: n.role, up: n.healthy, ...(n.master === undefined ? {} : { master: n.master }) }));
}

/**
 * The cluster node a viewer asked for, checked against CLUSTER NODES (the
 * connection carries the profile's password: never an arbitrary host), or the
 * first reachable master when none was named.
 */
export async function clusterMonitorNode(pool: Pick<PoolApi, 'nodes'>, profileId: string, address: string | undefined): Promise<string> {
  const nodes = await clusterMonitorNodes(pool, profileId);
  if (address === undefined) {
    const first = nodes.find((n) => n.role === 'master' && n.up) ?? nodes[0];
    if (first === undefined) throw new AppError('UNREACHABLE', 'No node of this cluster could be reached.');
    return first.address;
  }
  if (nodes.some((n) => n.address === address)) return address;
  throw new AppError('NOT_FOUND', `${address} is not a node of this cluster (as CLUSTER NODES lists it now).`, 'address');
}
