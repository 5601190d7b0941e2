import type { DiscoveredNode } from './discovery';
import { treeOrder } from './treeOrder';
import type { TopologyEntry } from './types';

/**
 * The node list after a discovery: what was found, in tree order, plus every
 * node known before that discovery no longer reaches. A replica that died drops
 * out of its master's slaveN list, and it is exactly the node the operator must
 * keep seeing (down, alerting) until it is back; it keeps the role and master
 * last known. Nodes found to be another name of a listed node (`aliases`) go.
 */
export function mergeTopology(
  found: DiscoveredNode[],
  known: ReadonlyMap<string, TopologyEntry>,
  aliases: ReadonlyMap<string, string>,
  maxNodes: number,
): TopologyEntry[] {
  const merged: TopologyEntry[] = [];
  for (const n of found) {
    const before = known.get(n.address);
    const entry: TopologyEntry = { address: n.address, role: n.role, up: n.up };
    if (!n.up && n.role === 'unknown' && before !== undefined) entry.role = before.role;
    const master = n.master ?? (n.up ? undefined : before?.master);
    if (master !== undefined) entry.master = master;
    // A down cluster node keeps its slots from the listing (CLUSTER NODES still names them, flagged fail).
    if (n.slots !== undefined) entry.slots = n.slots;
    if (n.flags !== undefined) entry.flags = n.flags;
    merged.push(entry);
  }
  const listed = new Set(merged.map((n) => n.address));
  for (const [address, n] of known) {
    if (listed.has(address) || aliases.has(address) || merged.length >= maxNodes) continue;
    merged.push({ ...n, up: false });
  }
  return treeOrder(merged, found[0]?.address);
}
