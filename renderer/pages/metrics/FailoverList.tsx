import type { FailoverEvent } from '../../../app/schemas/metrics';
import { clock } from '../../lib/display';

/** Failovers seen while watching, newest first: when, which node, its role before and after. */
export function FailoverList({ failovers }: { failovers: readonly FailoverEvent[] }) {
  return (
    <section className="panel ov-failovers" data-testid="failovers" aria-label="Failovers">
      <header className="ov-panel-head">
        <h2>Failovers</h2>
        <span className="ov-head-note muted">role changes seen between polls</span>
      </header>
      {failovers.length === 0 ? (
        <p className="muted">None since watching started.</p>
      ) : (
        <table className="ov-table">
          <thead>
            <tr>
              <th>Time</th>
              <th>Node</th>
              <th>Role</th>
              <th>Seen by</th>
            </tr>
          </thead>
          <tbody>
            {[...failovers].reverse().map((f) => (
              <tr key={f.id} data-testid="failover-row">
                <td className="mono">{clock(f.at)}</td>
                <td className="mono">{f.address}</td>
                <td>
                  {f.oldRole} → <strong>{f.newRole}</strong>
                  {f.previousMaster !== undefined && <span className="muted"> (was {f.previousMaster})</span>}
                </td>
                <td className="muted">{f.source === 'sentinel' ? 'Sentinel' : 'polling'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
