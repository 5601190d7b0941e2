/** A node as topology listings name it: its address, its role, and a replica's master. */
interface Placed {
  address: string;
  role: string;
  master?: string | undefined;
}

/** Addresses in their natural order (port 7000 before 10000). */
export const byAddress = (a: { address: string }, b: { address: string }): number => a.address.localeCompare(b.address, 'en', { numeric: true });

/**
 * Nodes in shard order, as the pages list them: each master (by address) followed by its
 * replicas (by address), so a shard reads as one group; a node whose master is not listed
 * (yet) comes last, still listed. Each address once.
 */
export function inShardOrder<T extends Placed>(nodes: readonly T[]): T[] {
  const out: T[] = [];
  const placed = new Set<string>();
  const add = (n: T): void => {
    if (placed.has(n.address)) return;
    placed.add(n.address);
    out.push(n);
  };
  for (const m of nodes.filter((n) => n.role === 'master').sort(byAddress)) {
    add(m);
    nodes
      .filter((r) => r.role === 'replica' && r.master === m.address)
      .sort(byAddress)
      .forEach(add);
  }
  [...nodes].sort(byAddress).forEach(add);
  return out;
}
