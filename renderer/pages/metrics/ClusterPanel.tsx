import type { ClusterFacts } from '../../../app/schemas/metrics';
import { roleLabel, type TopoNode } from '../../lib/nodes';
import { CLUSTER_SLOTS, shardsOf, slotText } from './shards';

interface Props {
  cluster: ClusterFacts | undefined;
  nodes: readonly TopoNode[];
  colors: ReadonlyMap<string, string>;
  onSelect(address: string): void;
}

function NodeChip({ node, color, onSelect }: { node: TopoNode; color: string | undefined; onSelect(a: string): void }) {
  return (
    <button
      type="button"
      className={`ov-chip mono ${node.up ? '' : 'is-down'}`}
      onClick={() => onSelect(node.address)}
      title={`${node.address} (${roleLabel(node.role)}${node.up ? '' : ', down'})`}
    >
      <span className="ov-chip-dot" style={{ background: color }} aria-hidden="true" />
      {node.address}
      {(node.flags ?? []).length > 0 && <span className="muted"> {node.flags?.join(',')}</span>}
    </button>
  );
}

/** cluster_state and slot coverage (CLUSTER INFO, the worst node's view), then one row per shard. */
export function ClusterPanel({ cluster, nodes, colors, onSelect }: Props) {
  const shards = shardsOf(nodes);
  const ok = cluster?.state === 'ok';
  const covered = cluster === undefined ? undefined : cluster.slotsAssigned - cluster.slotsFail;
  return (
    <section className="panel ov-cluster" data-testid="cluster-panel" aria-label="Cluster">
      <header className="ov-panel-head">
        <h2>Cluster</h2>
        <span className={`badge ${cluster === undefined ? 'badge-unknown' : ok ? 'badge-ready' : 'badge-error'}`} data-testid="cluster-state">
          cluster_state {cluster?.state ?? '?'}
        </span>
        <span className="ov-head-note muted" data-testid="cluster-slots">
          {covered === undefined
            ? 'slots: no node answered CLUSTER INFO'
            : `slots covered ${covered} / ${CLUSTER_SLOTS}` +
              (cluster !== undefined && cluster.slotsPfail + cluster.slotsFail > 0 ? ` · pfail ${cluster.slotsPfail} · fail ${cluster.slotsFail}` : '') +
              (cluster === undefined ? '' : ` · as ${cluster.reportedBy} sees it`)}
        </span>
      </header>
      <table className="ov-table ov-shards">
        <thead>
          <tr>
            <th>Shard master</th>
            <th>Slots</th>
            <th>Replicas</th>
          </tr>
        </thead>
        <tbody>
          {shards.map((s) => (
            <tr key={s.master.address} data-testid="shard">
              <td>
                <NodeChip node={s.master} color={colors.get(s.master.address)} onSelect={onSelect} />
              </td>
              <td className="mono" title={slotText(s.master.slots)}>
                {s.slotCount} <span className="muted">({slotText(s.master.slots)})</span>
              </td>
              <td>
                {s.replicas.length === 0 ? (
                  <span className="muted">none</span>
                ) : (
                  s.replicas.map((r) => <NodeChip key={r.address} node={r} color={colors.get(r.address)} onSelect={onSelect} />)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
