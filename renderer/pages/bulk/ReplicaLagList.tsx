import type { LoadEvent } from '../../../app/schemas/bulk';
import { formatBytes, formatCount } from '../../lib/format';

type Progress = Extract<LoadEvent, { kind: 'progress' }>;

/**
 * Each replica of the loaded master as last sampled (about once a second): how far behind the
 * master's offset it is in bytes, a bar against the furthest behind, and how long since it
 * acknowledged. Where INFO is refused, one line says lag is not available.
 */
export function ReplicaLagList({ p }: { p: Progress | undefined }) {
  if (p?.replicasUnknown !== undefined) {
    return (
      <p className="hint bulk-replica-lag-unknown" role="status" data-testid="bulk-replica-lag">
        Replica lag not available: {p.replicasUnknown}.
      </p>
    );
  }
  const replicas = p?.replicas ?? [];
  if (replicas.length === 0) return null;
  const worst = Math.max(1, ...replicas.map((r) => r.lagBytes));
  return (
    <div className="bulk-replica-lag" data-testid="bulk-replica-lag">
      <h3 className="bulk-label">Replica lag</h3>
      <ul>
        {replicas.map((r) => (
          <li key={r.addr} data-addr={r.addr}>
            <span className="mono bulk-replica-addr">{r.addr}</span>
            <span className="bulk-replica-bar" aria-hidden="true">
              <span style={{ width: `${Math.round((r.lagBytes / worst) * 100)}%` }} />
            </span>
            <span className="bulk-replica-figures" data-testid="bulk-replica-lag-bytes">
              {r.lagBytes === 0 ? 'in step' : `${formatBytes(r.lagBytes)} behind`}
              <span className="muted">
                {' '}
                · ack {formatCount(r.lagSeconds)} s ago{r.state === 'online' ? '' : ` · ${r.state}`}
              </span>
            </span>
          </li>
        ))}
      </ul>
      {p?.replicasMore !== undefined && p.replicasMore > 0 && <p className="muted">and {formatCount(p.replicasMore)} more replicas</p>}
    </div>
  );
}
