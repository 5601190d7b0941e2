import type { ConsoleNode, ConsoleTarget } from '../../../app/schemas/console';

type Topology = 'standalone' | 'sentinel' | 'cluster';

interface Props {
  topology: Topology;
  nodes: readonly ConsoleNode[];
  value: ConsoleTarget;
  onChange(t: ConsoleTarget): void;
}

const AUTO: Record<Topology, string> = {
  standalone: 'Auto (the profile’s server)',
  sentinel: 'Auto (the current master)',
  cluster: 'Auto (by key slot)',
};

function valueOf(t: ConsoleTarget): string {
  return t.kind === 'node' ? `node:${t.address}` : t.kind;
}

function targetOf(v: string): ConsoleTarget {
  if (v.startsWith('node:')) return { kind: 'node', address: v.slice(5) };
  return v === 'masters' ? { kind: 'masters' } : { kind: 'auto' };
}

/** A node in the picker: its address, role and (cluster) slots or (replica) master. */
function nodeLabel(n: ConsoleNode): string {
  const more =
    n.role === 'replica' ? (n.master !== undefined ? `replica of ${n.master}` : 'replica') : n.slots !== undefined ? `master, slots ${n.slots}` : 'master';
  return `${n.address} (${more})`;
}

/**
 * Where commands go: on a cluster or a server with replicas, auto (the server's own rules),
 * one node, or every master with the replies side by side. A lone server needs no choice.
 */
export function TargetPicker({ topology, nodes, value, onChange }: Props) {
  if (nodes.length <= 1) return null;
  const masters = nodes.filter((n) => n.role === 'master').length;
  return (
    <label className="cn-target">
      <span>Run on</span>
      <select value={valueOf(value)} onChange={(e) => onChange(targetOf(e.target.value))} data-testid="console-target">
        <option value="auto">{AUTO[topology]}</option>
        {masters > 1 && <option value="masters">Every master ({masters})</option>}
        {nodes.map((n) => (
          <option key={n.address} value={`node:${n.address}`}>
            {nodeLabel(n)}
          </option>
        ))}
      </select>
    </label>
  );
}
