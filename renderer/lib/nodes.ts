import type { z } from 'zod';
import type { NodeSample, TopologyNode } from '../../app/schemas/metrics';

export type TopoNode = z.output<typeof TopologyNode>;

/** INFO says `role:slave` on every Redis version; newer tooling says replica. */
export function isReplicaRole(role: string | undefined): boolean {
  return role === 'slave' || role === 'replica';
}

export function roleLabel(role: string | undefined): string {
  if (role === undefined || role === '') return 'unknown';
  return isReplicaRole(role) ? 'replica' : role;
}

/** `[::1]:6379` and `::1:6379` name one node; hosts compare case-insensitively. */
export function normalizeAddress(address: string): string {
  const m = /^\[(.*)\]:(\d+)$/.exec(address);
  return (m ? `${m[1]}:${m[2]}` : address).toLowerCase();
}

/** The node a profile points at, as `host:port`. */
export function profileAddress(p: { host: string; port: number }): string {
  return p.host.includes(':') ? `[${p.host}]:${p.port}` : `${p.host}:${p.port}`;
}

export function sameAddress(a: string, b: string): boolean {
  return normalizeAddress(a) === normalizeAddress(b);
}

/** The profile's own node when polled, else the master (a root one first), else the first node. */
export function pickDefaultNode(samples: readonly NodeSample[], own: string): string | undefined {
  const mine = samples.find((s) => sameAddress(s.address, own));
  if (mine !== undefined) return mine.address;
  const masters = samples.filter((s) => s.role === 'master');
  const root = masters.find((s) => s.replication?.masterAddress === undefined) ?? masters[0];
  return (root ?? samples[0])?.address;
}

/**
 * The graph the page draws: the server's topology when it sent one, completed from
 * the samples (a node may appear in a tick before the next topology event). A down
 * node says nothing about itself: its place comes from the topology, its last sample
 * while up, or a master that still lists it, in that order.
 */
export function topologyOf(
  topology: readonly TopoNode[] | undefined,
  samples: readonly NodeSample[],
  lastUp: ReadonlyMap<string, NodeSample> = new Map(),
): TopoNode[] {
  const byAddress = new Map<string, TopoNode>();
  for (const n of topology ?? []) byAddress.set(n.address, { ...n });
  const listedBy = new Map<string, string>();
  for (const s of samples) for (const r of s.replication?.replicas ?? []) listedBy.set(r.address, s.address);
  for (const s of samples) {
    const known = byAddress.get(s.address);
    if (!s.up && known !== undefined) {
      byAddress.set(s.address, { ...known, up: false });
      continue;
    }
    const from = s.up ? s : lastUp.get(s.address);
    const lister = listedBy.get(s.address);
    const role = from?.role ?? from?.replication?.role ?? (lister === undefined ? 'unknown' : 'slave');
    const master = from?.replication?.masterAddress ?? lister;
    // What only the topology knows (a cluster master's slots, CLUSTER NODES flags) stays.
    const node: TopoNode = { ...known, address: s.address, role, up: s.up };
    if (master !== undefined) node.master = master;
    else if (role === 'master') delete node.master;
    byAddress.set(s.address, node);
  }
  return [...byAddress.values()];
}

/** Depth-first from the roots: a master, then its replicas (and theirs), so lists read like the graph. */
export function orderNodes(nodes: readonly TopoNode[]): string[] {
  const children = new Map<string, TopoNode[]>();
  const known = new Set(nodes.map((n) => n.address));
  const roots: TopoNode[] = [];
  for (const n of nodes) {
    if (n.master !== undefined && known.has(n.master) && n.master !== n.address) {
      const list = children.get(n.master) ?? [];
      list.push(n);
      children.set(n.master, list);
    } else roots.push(n);
  }
  const byRoleThenAddress = (a: TopoNode, b: TopoNode) =>
    Number(isReplicaRole(a.role)) - Number(isReplicaRole(b.role)) || a.address.localeCompare(b.address, 'en', { numeric: true });
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (n: TopoNode) => {
    if (seen.has(n.address)) return;
    seen.add(n.address);
    out.push(n.address);
    for (const c of (children.get(n.address) ?? []).sort(byRoleThenAddress)) visit(c);
  };
  for (const r of roots.sort(byRoleThenAddress)) visit(r);
  // A replication cycle has no root; its nodes still get listed.
  for (const n of nodes) visit(n);
  return out;
}

/** The series colours of styles.css, in order: each has a light and a dark shade, so a chart reads in either theme. */
export const NODE_COLORS = [
  'var(--series-1)',
  'var(--series-2)',
  'var(--series-3)',
  'var(--series-4)',
  'var(--series-5)',
  'var(--series-6)',
  'var(--series-7)',
  'var(--series-8)',
  'var(--series-9)',
  'var(--series-10)',
  'var(--series-11)',
  'var(--series-12)',
] as const;

export function colorAt(index: number): string {
  return NODE_COLORS[((index % NODE_COLORS.length) + NODE_COLORS.length) % NODE_COLORS.length] ?? 'var(--series-8)';
}
