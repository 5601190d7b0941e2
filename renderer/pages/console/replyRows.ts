import type { ReplyNode } from '../../../app/schemas/console';

export type Aggregate = Extract<ReplyNode, { total: number }>;
export type Scalar = Exclude<ReplyNode, Aggregate>;

/**
 * One drawn line of a reply tree. A reply is drawn as a flat list of these (so only the
 * lines in view are in the DOM): an aggregate is its head line, then its children one depth
 * further in, unless folded.
 */
export type ReplyRow =
  | {
      kind: 'node';
      /** Its place in the list: the key of its drawn line. */
      key: number;
      depth: number;
      /** `1)` in an array, `1#` in a map (redis-cli's numbering), absent at the top. */
      label?: string;
      /** Characters the widest label of its aggregate takes: labels line up as redis-cli pads them. */
      labelWidth?: number;
      /** A map entry's key, drawn before `=>`. */
      mapKey?: ReplyNode;
      node: ReplyNode;
      /** An aggregate with children: drawn with a fold toggle. */
      foldable: boolean;
      folded: boolean;
    }
  /** `… N more not shown`: what the display bound left out of an aggregate. */
  | { kind: 'more'; key: number; depth: number; more: number };

export function isAggregate(node: ReplyNode): node is Aggregate {
  return 'total' in node;
}

/** How many children an aggregate holds here (the shown ones). */
export function shownCount(node: Aggregate): number {
  return 'items' in node ? node.items.length : node.entries.length;
}

/**
 * The rows of a reply with the `folded` aggregates closed. Every node of a reply is its own
 * object (parsed from JSON), so it is its own fold key (a path, "0.3.1", would grow with the
 * depth). Iterative, with an explicit stack: a reply nested thousands deep (a Lua table can
 * be) draws rather than overflowing the JS stack. A flat aggregate, the common big reply,
 * takes the short way: REPLY_DISPLAY_ELEMENTS rows in a few ms.
 */
export function replyRows(reply: ReplyNode, folded: ReadonlySet<ReplyNode>): ReplyRow[] {
  const rows: ReplyRow[] = [];
  type Step = { node: ReplyNode; depth: number; label?: string; labelWidth?: number; mapKey?: ReplyNode } | { more: number; depth: number };
  const stack: Step[] = [{ node: reply, depth: 0 }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ('more' in step) {
      rows.push({ kind: 'more', key: rows.length, depth: step.depth, more: step.more });
      continue;
    }
    const { node, depth } = step;
    const agg = isAggregate(node) && shownCount(node) > 0;
    const isFolded = agg && folded.has(node);
    rows.push({
      kind: 'node',
      key: rows.length,
      depth,
      label: step.label,
      labelWidth: step.labelWidth,
      mapKey: step.mapKey,
      node,
      foldable: agg,
      folded: isFolded,
    });
    if (!agg || isFolded) continue;
    const n = shownCount(node);
    const labelWidth = String(n).length + 1;
    if ('items' in node ? node.items.every((c) => !isAggregate(c)) : node.entries.every(([, v]) => !isAggregate(v))) {
      // Flat (a list's LRANGE, a hash's HGETALL): its rows straight in, no stack.
      for (let i = 0; i < n; i++) {
        const [child, mapKey] =
          'items' in node
            ? [node.items[i] as ReplyNode, undefined]
            : [(node.entries[i] as [ReplyNode, ReplyNode])[1], (node.entries[i] as [ReplyNode, ReplyNode])[0]];
        rows.push({
          kind: 'node',
          key: rows.length,
          depth: depth + 1,
          label: `${i + 1}${mapKey === undefined ? ')' : '#'}`,
          labelWidth,
          mapKey,
          node: child,
          foldable: false,
          folded: false,
        });
      }
      if (node.total > n) rows.push({ kind: 'more', key: rows.length, depth: depth + 1, more: node.total - n });
      continue;
    }
    // Pushed last-first, so they pop in order.
    if (node.total > n) stack.push({ more: node.total - n, depth: depth + 1 });
    if ('items' in node) {
      for (let i = n - 1; i >= 0; i--) stack.push({ node: node.items[i] as ReplyNode, depth: depth + 1, label: `${i + 1})`, labelWidth });
    } else {
      for (let i = n - 1; i >= 0; i--) {
        const [k, v] = node.entries[i] as [ReplyNode, ReplyNode];
        stack.push({ node: v, depth: depth + 1, label: `${i + 1}#`, labelWidth, mapKey: k });
      }
    }
  }
  return rows;
}

/** Every foldable aggregate inside a reply (for Fold all), as far as it is shown. */
export function foldableNodes(reply: ReplyNode): ReplyNode[] {
  const out: ReplyNode[] = [];
  for (const r of replyRows(reply, new Set())) if (r.kind === 'node' && r.foldable && r.node !== reply) out.push(r.node);
  return out;
}

/** The type's name with its count: "array · 3 elements", "map · 1,000 entries (200 shown)". */
export function aggregateSummary(node: Aggregate): string {
  const n = shownCount(node);
  const what = node.t === 'map' || node.t === 'attribute' ? (node.total === 1 ? 'entry' : 'entries') : node.total === 1 ? 'element' : 'elements';
  const shown = node.total === n ? '' : ` (${n.toLocaleString('en-US')} shown)`;
  return `${node.t} · ${node.total.toLocaleString('en-US')} ${what}${shown}`;
}

/** redis-cli's words for an empty aggregate: `(empty array)`, `(empty map)`. */
export function emptyText(node: Aggregate): string {
  return `(empty ${node.t})`;
}
