import type { FailoverEvent } from '../../../app/schemas/metrics';
import type { TopologyFacts } from './metricsState';
import { clock } from '../../lib/display';

/** The latest promotion to master, which for a sentinel profile is where its writes go now. */
export function lastMasterSwitch(failovers: readonly FailoverEvent[]): FailoverEvent | undefined {
  return [...failovers].reverse().find((f) => f.newRole === 'master');
}

export function FailoverBanner({ failover }: { failover: FailoverEvent }) {
  return (
    <div className="alert ov-failover-banner" role="status" data-testid="failover-banner">
      <strong>
        Failover at {clock(failover.at)}: master is now {failover.address}
      </strong>
      {failover.previousMaster !== undefined && <span className="muted"> (was {failover.previousMaster})</span>}
    </div>
  );
}

/** The sentinels as they list each other (SENTINEL SENTINELS), with their flags when not healthy. */
export function SentinelList({ sentinels }: { sentinels: NonNullable<TopologyFacts['sentinels']> }) {
  return (
    <section className="panel ov-sentinels" data-testid="sentinels" aria-label="Sentinels">
      <header className="ov-panel-head">
        <h2>Sentinels</h2>
        <span className="ov-head-note muted">
          {sentinels.filter((s) => s.healthy).length} of {sentinels.length} healthy
        </span>
      </header>
      <ul className="ov-sentinel-list">
        {sentinels.map((s) => (
          <li key={s.address} className="mono" data-testid="sentinel">
            <span className={`badge ${s.healthy ? 'badge-ready' : 'badge-error'}`}>{s.healthy ? 'ok' : s.flags.join(',') || 'down'}</span> {s.address}
          </li>
        ))}
      </ul>
    </section>
  );
}
