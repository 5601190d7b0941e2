import { AppError } from '../../../app/errors';
import { inShardOrder } from './shardOrder';
import type { PoolApi } from './types';

/** A data node of a profile as a page lists it. */
export interface ProfileNode {
  address: string;
  role: string;
  up: boolean;
  /** Replicas: their master's address. */
  master?: string;
}

/**
 * How a profile's nodes are found by asking them (MetricsHub): the replication tree walked
 * from the profile's server, or what a cluster's or the sentinels' listing names, each node
 * asked for INFO, and the nodes known before carried over while the server that reports
 * them is down. The pool only knows what the servers list; walking a tree is monitoring's.
 */
export interface NodeDiscovery {
  nodes(connectionId: string): Promise<ProfileNode[]>;
  /** The node `address` names (checked against the discovery), or the profile's own when undefined. */
  nodeOf(connectionId: string, address: string | undefined): Promise<string>;
}

/**
 * Where a cluster's nodes come from, the one thing the pages differ on:
 * - `listed`: CLUSTER NODES as it stands (health from its flags), no node asked. For pages
 *   that open one node at a time (Monitor, Clients): a node down is still listed, at once.
 * - `asked`: the discovery's, each node asked for INFO (its role is its own word), as the
 *   Overview shows them. For pages that read every node anyway (Config, Pub/Sub).
 * Any other topology has no listing of its own: every page gets the discovery's nodes.
 */
export type ClusterNodes = 'listed' | 'asked';

export interface PageNodes {
  /** The profile's data nodes (never a sentinel), masters before their replicas. */
  nodes(connectionId: string): Promise<ProfileNode[]>;
  /**
   * The node a page asked for, checked against nodes() (the connection carries the profile's
   * password: never an arbitrary host); undefined: the profile's own, or a cluster's first
   * reachable master.
   */
  node(connectionId: string, address: string | undefined): Promise<string>;
}

async function listedClusterNodes(pool: Pick<PoolApi, 'nodes'>, connectionId: string): Promise<ProfileNode[]> {
  const all = (await pool.nodes(connectionId)).filter((n) => n.role !== 'sentinel' && n.address !== '');
  return inShardOrder(all).map((n) => ({ address: n.address, role: n.role, up: n.healthy, ...(n.master === undefined ? {} : { master: n.master }) }));
}

function pickNode(nodes: readonly ProfileNode[], address: string | undefined): string {
  if (address === undefined) {
    const first = nodes.find((n) => n.role === 'master' && n.up) ?? nodes[0];
    if (first === undefined) throw new AppError('UNREACHABLE', 'No node of this cluster could be reached.');
    return first.address;
  }
  if (nodes.some((n) => n.address === address)) return address;
  throw new AppError('NOT_FOUND', `${address} is not a node of this cluster (as CLUSTER NODES lists it now).`, 'address');
}

/** The one way a page finds a profile's nodes (see ClusterNodes for how pages differ). */
export function pageNodes(pool: Pick<PoolApi, 'nodes' | 'topology'>, discovery: NodeDiscovery, cluster: ClusterNodes): PageNodes {
  const listed = (id: string) => cluster === 'listed' && pool.topology(id) === 'cluster';
  return {
    nodes: async (id) => (listed(id) ? listedClusterNodes(pool, id) : (await discovery.nodes(id)).filter((n) => n.role !== 'sentinel')),
    node: async (id, address) => (listed(id) ? pickNode(await listedClusterNodes(pool, id), address) : discovery.nodeOf(id, address)),
  };
}
