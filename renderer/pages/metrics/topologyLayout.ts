import { orderNodes } from '../../lib/nodes';
import type { TopoNode } from '../../lib/nodes';

export interface LayoutBox {
  address: string;
  node: TopoNode;
  /** Named as a master by a replica but not polled: drawn dashed. */
  phantom: boolean;
  depth: number;
  x: number;
  y: number;
}

export interface LayoutEdge {
  from: string;
  to: string;
  /** Start (parent's right edge) and end (child's left edge) of the curve. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface Layout {
  width: number;
  height: number;
  boxes: LayoutBox[];
  edges: LayoutEdge[];
}

export interface LayoutSize {
  boxW: number;
  boxH: number;
  /** Horizontal room between levels, where edges and their lag labels go. */
  gapX: number;
  /** Vertical distance between two leaves. */
  pitch: number;
  pad: number;
}

export const DEFAULT_SIZE: LayoutSize = { boxW: 140, boxH: 36, gapX: 136, pitch: 44, pad: 6 };

/**
 * Left-to-right tree: a level per replication hop, a row per leaf, each master
 * centred on its replicas. Ten nodes of one master stay one screen tall, and a
 * chain (replica of a replica) adds a column rather than squeezing the row.
 */
export function layoutTopology(nodes: readonly TopoNode[], size: LayoutSize = DEFAULT_SIZE): Layout {
  const all = new Map<string, { node: TopoNode; phantom: boolean }>();
  for (const n of nodes) all.set(n.address, { node: n, phantom: false });
  for (const n of nodes) {
    if (n.master !== undefined && !all.has(n.master)) {
      all.set(n.master, { node: { address: n.master, role: 'master', up: false }, phantom: true });
    }
  }
  const list = [...all.values()].map((v) => v.node);
  const order = orderNodes(list);
  const children = new Map<string, string[]>();
  const parent = new Map<string, string>();
  const placed = new Set<string>();
  // orderNodes visits parents before children; a node is a child only of a node placed before it (no cycles).
  for (const address of order) {
    const n = all.get(address)?.node;
    placed.add(address);
    if (n?.master === undefined || n.master === address || !placed.has(n.master)) continue;
    parent.set(address, n.master);
    const c = children.get(n.master) ?? [];
    c.push(address);
    children.set(n.master, c);
  }

  const boxes = new Map<string, LayoutBox>();
  let leaf = 0;
  let maxDepth = 0;
  const place = (address: string, depth: number): number => {
    const kids = children.get(address) ?? [];
    let y: number;
    if (kids.length === 0) {
      y = size.pad + leaf * size.pitch;
      leaf += 1;
    } else {
      const ys = kids.map((k) => place(k, depth + 1));
      y = ((ys[0] ?? 0) + (ys.at(-1) ?? 0)) / 2;
    }
    const v = all.get(address);
    if (v !== undefined) {
      boxes.set(address, { address, node: v.node, phantom: v.phantom, depth, x: size.pad + depth * (size.boxW + size.gapX), y });
    }
    maxDepth = Math.max(maxDepth, depth);
    return y;
  };
  for (const address of order) if (!parent.has(address)) place(address, 0);

  const edges: LayoutEdge[] = [];
  for (const [child, master] of parent) {
    const a = boxes.get(master);
    const b = boxes.get(child);
    if (a === undefined || b === undefined) continue;
    edges.push({
      from: master,
      to: child,
      x1: a.x + size.boxW,
      y1: a.y + size.boxH / 2,
      x2: b.x,
      y2: b.y + size.boxH / 2,
    });
  }
  const ordered = order.map((a) => boxes.get(a)).filter((b): b is LayoutBox => b !== undefined);
  return {
    width: size.pad * 2 + (maxDepth + 1) * size.boxW + maxDepth * size.gapX,
    height: size.pad * 2 + Math.max(1, leaf) * size.pitch - (size.pitch - size.boxH),
    boxes: ordered,
    edges,
  };
}
