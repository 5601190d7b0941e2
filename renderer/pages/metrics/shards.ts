import { isReplicaRole, type TopoNode } from '../../lib/nodes';

export const CLUSTER_SLOTS = 16384;

export interface Shard {
  master: TopoNode;
  replicas: TopoNode[];
  /** Slots the master serves. */
  slotCount: number;
}

export function slotCount(ranges: readonly (readonly [number, number])[] | undefined): number {
  return (ranges ?? []).reduce((sum, [a, b]) => sum + b - a + 1, 0);
}

/** "0-5460" or "0-99, 200, 300-400": CLUSTER NODES' own notation. */
export function slotText(ranges: readonly (readonly [number, number])[] | undefined): string {
  if (ranges === undefined || ranges.length === 0) return 'no slots';
  return ranges.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(', ');
}

/**
 * A cluster's shards: each master with the replicas that follow it, in the
 * server's order (masters by address). A replica whose master is not listed
 * (it just lost it) is a shard of its own, so no node goes missing.
 */
export function shardsOf(nodes: readonly TopoNode[]): Shard[] {
  const byMaster = new Map<string, TopoNode[]>();
  const listed = new Set(nodes.map((n) => n.address));
  for (const n of nodes) {
    if (!isReplicaRole(n.role) || n.master === undefined || !listed.has(n.master)) continue;
    byMaster.set(n.master, [...(byMaster.get(n.master) ?? []), n]);
  }
  return nodes
    .filter((n) => !isReplicaRole(n.role) || n.master === undefined || !listed.has(n.master))
    .map((m) => ({ master: m, replicas: byMaster.get(m.address) ?? [], slotCount: slotCount(m.slots) }));
}
