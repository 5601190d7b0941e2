/** A node as monitor.nodes lists it: a cluster's replicas name their master. */
interface ShardNode {
  address: string;
  role: string;
  master?: string;
}

/**
 * The nodes in groups: on a cluster (more than one master), one per shard, a
 * master and the replicas that name it, in the order listed; otherwise one
 * group (a replication tree is one shard). Nodes keep their list order inside
 * a group; a replica whose master is not listed gets a group of its own.
 */
export function shardGroups<N extends ShardNode>(nodes: readonly N[]): N[][] {
  const masters = nodes.filter((n) => n.role === 'master');
  if (masters.length <= 1) return nodes.length === 0 ? [] : [[...nodes]];
  const groups = new Map<string, N[]>();
  for (const n of nodes) {
    const key = n.role === 'master' ? n.address : (n.master ?? n.address);
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  return [...groups.values()];
}
