import type { z } from 'zod';
import type { SentinelEntry } from '../../../app/schemas/metrics';
import type { InfoSections } from '../info/parseInfo';
import type { PoolApi, TopologyKind, TopologyNode } from '../pool/types';
import { discoverTopology, type DiscoveredNode, type Discovery, type FetchInfo } from './discovery';
import { readRefusal } from '../redis/refusal';
import { replicationOf } from './replicationInfo';
import { treeOrder } from './treeOrder';

export type SentinelRecord = z.output<typeof SentinelEntry>;

export interface ProfileDiscovery extends Discovery {
  mode: TopologyKind;
  /** Sentinel profiles: the sentinels, with the health the answering sentinel gives them. */
  sentinels?: SentinelRecord[];
  /** Sentinel profiles: the master the sentinels name now. */
  master?: string;
}

/** A node the servers listed, reached (or not) with one INFO. */
async function reach(n: TopologyNode, fetch: FetchInfo): Promise<DiscoveredNode> {
  const node: DiscoveredNode = { address: n.address, role: n.role, up: false };
  if (n.master !== undefined) node.master = n.master;
  if (n.slots !== undefined) node.slots = n.slots;
  const flags = n.flags.filter((f) => f !== 'master' && f !== 'slave' && f !== 'myself');
  if (flags.length > 0) node.flags = flags;
  let sections: InfoSections;
  try {
    sections = await fetch(n.address);
  } catch (err) {
    node.error = err instanceof Error ? err.message : String(err);
    // INFO refused (an ACL user without @dangerous): the node answered; only its figures are unknown.
    if (readRefusal(err, ['INFO']) !== undefined) node.up = true;
    return node;
  }
  node.up = true;
  node.sections = sections;
  // The node's own INFO is the truth about its role; the listing may lag a failover by a gossip round.
  node.role = replicationOf(sections).role;
  return node;
}

/**
 * Every data node of a cluster or sentinel profile, as the servers list them:
 * CLUSTER NODES (masters with their slots, replicas with the master they
 * follow) or SENTINEL MASTER/REPLICAS, each then asked for INFO. A cluster
 * has no single root to walk a replication tree from (a seed's tree is one
 * shard), so the listing replaces the INFO walk. Ordered by shard: each master
 * then its replicas.
 */
async function listedNodes(pool: PoolApi, connectionId: string, mode: TopologyKind, fetch: FetchInfo, maxNodes: number): Promise<ProfileDiscovery> {
  const listed = await pool.nodes(connectionId);
  const data = listed.filter((n) => n.role !== 'sentinel').slice(0, maxNodes);
  const nodes = await Promise.all(data.map((n) => reach(n, fetch)));
  const master = mode === 'sentinel' ? data.find((n) => n.role === 'master')?.address : undefined;
  const out: ProfileDiscovery = { mode, nodes: treeOrder(nodes, master), aliases: new Map() };
  if (mode === 'sentinel') {
    // The answering sentinel lists itself first among the sentinels; SENTINEL SENTINELS names the others.
    const seen = new Set<string>();
    out.sentinels = listed
      .filter((n) => n.role === 'sentinel' && !seen.has(n.address) && seen.add(n.address))
      .map((n) => ({ address: n.address, healthy: n.healthy, flags: n.flags }));
    if (master !== undefined) out.master = master;
  }
  return out;
}

/**
 * The nodes a profile's monitoring polls. Standalone: the replication tree
 * walked from the profile's server. Cluster and sentinel: what the servers
 * list (see listedNodes).
 */
export async function discoverProfile(pool: PoolApi, connectionId: string, fetch: FetchInfo, opts: { maxNodes: number }): Promise<ProfileDiscovery> {
  const mode = pool.topology(connectionId);
  if (mode === 'standalone') return { mode, ...(await discoverTopology(pool.address(connectionId), fetch, opts)) };
  return listedNodes(pool, connectionId, mode, fetch, opts.maxNodes);
}
