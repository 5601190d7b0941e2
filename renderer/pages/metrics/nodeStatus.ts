import type { NodeSample } from '../../../app/schemas/metrics';
import { plural } from '../../lib/plural';

/** What the last poll of a node said: it answered, it was slow (its connection open), or it was unreachable. */
export type NodeStatus = NonNullable<NodeSample['status']>;

/** A sample's status; a server before issue 29 sends only `up`, which then means unreachable when false. */
export function nodeStatus(s: NodeSample): NodeStatus {
  return s.status ?? (s.up ? 'up' : 'unreachable');
}

/** The class the status takes everywhere on the page (pills, cards, topology boxes). */
export const STATUS_CLASS: Record<NodeStatus, string> = { up: 'is-up', slow: 'is-slow', unreachable: 'is-down' };

/** The alerts bar's word on the nodes: "All 3 nodes up", "1 node up", "1 of 3 nodes unreachable, 1 slow". */
export function nodesSummary(nodes: number, unreachable: number, slow: number): string {
  if (unreachable === 0 && slow === 0) return nodes === 1 ? '1 node up' : `All ${plural(nodes, 'node')} up`;
  const of = `of ${plural(nodes, 'node')}`;
  if (unreachable > 0 && slow > 0) return `${unreachable} ${of} unreachable, ${slow} slow`;
  return unreachable > 0 ? `${unreachable} ${of} unreachable` : `${slow} ${of} slow`;
}
