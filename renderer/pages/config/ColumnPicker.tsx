import type { ConfigNode } from '../../../app/schemas/config';
import { roleLabel } from '../../lib/nodes';

interface Props {
  nodes: readonly ConfigNode[];
  picked: readonly string[];
  onPick(addresses: string[]): void;
}

/** Which nodes are columns, when there are more than fit side by side. */
export function ColumnPicker({ nodes, picked, onPick }: Props) {
  const toggle = (address: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(address);
    else next.delete(address);
    // Kept in the listed order (each master before its replicas), whatever order they were ticked in.
    onPick(nodes.map((n) => n.address).filter((a) => next.has(a)));
  };
  return (
    <fieldset className="cfg-columns" data-testid="config-columns">
      <legend>Columns</legend>
      {nodes.map((n) => (
        <label key={n.address} className="cfg-column" data-address={n.address}>
          <input type="checkbox" checked={picked.includes(n.address)} onChange={(e) => toggle(n.address, e.target.checked)} />
          <span className="mono">{n.address}</span>
          <span className="tag">{roleLabel(n.role)}</span>
        </label>
      ))}
    </fieldset>
  );
}
