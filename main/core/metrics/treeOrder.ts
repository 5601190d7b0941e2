import { compareAddresses } from './address';

/**
 * Nodes in tree order: each master before its replicas, siblings by address,
 * `top` (the master the profile leads to) first among the roots. A node whose
 * master is not in the list is a root; nodes caught in a replication loop have
 * no root and are listed last, so every node appears exactly once.
 */
export function treeOrder<T extends { address: string; master?: string | undefined }>(nodes: T[], top?: string): T[] {
  const present = new Set(nodes.map((n) => n.address));
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const n of nodes) {
    const m = n.master;
    if (m === undefined || m === n.address || !present.has(m)) roots.push(n);
    else children.set(m, [...(children.get(m) ?? []), n]);
  }
  const order = (a: T, b: T): number => Number(b.address === top) - Number(a.address === top) || compareAddresses(a.address, b.address);
  const out: T[] = [];
  const seen = new Set<string>();
  const walk = (n: T): void => {
    if (seen.has(n.address)) return;
    seen.add(n.address);
    out.push(n);
    for (const c of (children.get(n.address) ?? []).sort(order)) walk(c);
  };
  for (const r of roots.sort(order)) walk(r);
  for (const n of [...nodes].sort(order)) walk(n);
  return out;
}
