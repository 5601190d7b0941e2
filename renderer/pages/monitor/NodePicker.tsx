import type { CallOutput } from '../../../app/contract';
import { roleLabel } from '../../lib/nodes';
import { shardGroups } from './shards';

type Node = CallOutput<'monitor.nodes'>['nodes'][number];

interface Props {
  nodes: readonly Node[];
  picked: readonly string[];
  onPick(addresses: string[]): void;
  colors: ReadonlyMap<string, string>;
  onRefresh(): void;
}

/** The profile's replication tree, or a cluster's nodes shard by shard, as checkboxes: one pane (and one MONITOR) per ticked node. */
export function NodePicker({ nodes, picked, onPick, colors, onRefresh }: Props) {
  const toggle = (address: string, on: boolean) => {
    // Kept in the tree's order (master first), whatever order they were ticked in.
    const next = new Set(picked);
    if (on) next.add(address);
    else next.delete(address);
    onPick(nodes.map((n) => n.address).filter((a) => next.has(a)));
  };
  const box = (n: Node) => (
    <label key={n.address} className="mon-node" data-testid="monitor-node" data-address={n.address}>
      <input type="checkbox" checked={picked.includes(n.address)} onChange={(e) => toggle(n.address, e.target.checked)} />
      <span className="mon-swatch" style={{ background: colors.get(n.address) ?? 'transparent' }} aria-hidden="true" />
      <span className="mono">{n.address}</span>
      <span className="tag">{roleLabel(n.role)}</span>
      {!n.up && <span className="tag tag-warn">down</span>}
    </label>
  );
  const groups = shardGroups(nodes);
  return (
    <fieldset className="mon-nodes" data-testid="monitor-nodes">
      <legend>Nodes</legend>
      {groups.length <= 1
        ? nodes.map(box)
        : groups.map((g, i) => (
            // A cluster: one group per shard (a master and its replicas), each node its own pane.
            <span key={g[0]?.address ?? i} className="mon-shard" data-testid="monitor-shard">
              <span className="mon-shard-name">shard {i + 1}</span>
              {g.map(box)}
            </span>
          ))}
      <button type="button" className="btn btn-small btn-ghost" onClick={onRefresh} title="Discover the replication tree again">
        Refresh
      </button>
    </fieldset>
  );
}
