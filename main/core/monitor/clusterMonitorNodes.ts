import { AppError } from '../../../app/errors';
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
  const byAddress = (a: { address: string }, b: { address: string }) => a.address.localeCompare(b.address, 'en', { numeric: true });
  const masters = all.filter((n) => n.role === 'master').sort(byAddress);
  const out: MonitorNode[] = [];
  const placed = new Set<string>();
  const add = (n: (typeof all)[number]) => {
    placed.add(n.address);
    out.push({ address: n.address, role: n.role, up: n.healthy, ...(n.master === undefined ? {} : { master: n.master }) });
  };
  for (const m of masters) {
    add(m);
    all.filter((r) => r.role === 'replica' && r.master === m.address).sort(byAddress).forEach(add);
  }
  // A replica whose master is not listed (yet): still watchable, at the end.
  all.filter((n) => !placed.has(n.address)).sort(byAddress).forEach(add);
  return out;
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
