import type { Alert } from '../../../app/schemas/metrics';
import { ALERT_LABELS, type AlertGroups } from './alerts';
import { clock, since } from '../../lib/display';
import { AsOf } from '../../components/LiveState';
import { nodesSummary } from './nodeStatus';

/** The page is not live: why (the link, the stream), and the time its figures are from. */
export interface Stale {
  why: string;
  asOf: number;
}

interface Props {
  groups: AlertGroups;
  /** Server time of the latest tick. */
  now: number;
  nodeCount: number;
  unreachableCount: number;
  slowCount: number;
  onSelect(address: string): void;
  /** Set while the page is not live: the bar says so instead of its last state in green. */
  stale?: Stale | undefined;
}

function AlertRow({ alert, now, onSelect }: { alert: Alert; now: number; onSelect(address: string): void }) {
  const resolved = alert.resolvedAt !== undefined;
  return (
    <li
      className={`ov-alert ov-alert-${alert.severity}${resolved ? ' ov-alert-resolved' : ''}`}
      data-testid={resolved ? 'alert-resolved' : 'alert'}
      data-kind={alert.kind}
      data-severity={alert.severity}
    >
      <span className="ov-alert-sev">{alert.severity}</span>
      <span className="ov-alert-kind">{ALERT_LABELS[alert.kind]}</span>
      <button type="button" className="ov-linklike mono" onClick={() => onSelect(alert.address)} title="Show this node">
        {alert.address}
      </button>
      <span className="ov-alert-msg" title={alert.message}>
        {alert.message}
      </span>
      <span className="ov-alert-time">
        {resolved ? (
          <>
            resolved {clock(alert.resolvedAt ?? 0)} · lasted {since(alert.since, alert.resolvedAt ?? alert.since)}
          </>
        ) : (
          <>
            since {clock(alert.since)} · {since(alert.since, now)}
          </>
        )}
      </span>
    </li>
  );
}

/** Not live: what the page last heard, marked with its time, never the green "all up". */
function StaleAlerts({ stale, active, nodes }: { stale: Stale; active: number; nodes: string }) {
  const last = active > 0 ? `${active} active alert${active === 1 ? '' : 's'}` : `no active alerts, ${nodes}`;
  return (
    <section className="ov-alerts ov-alerts-stale" data-testid="alerts" data-stale="true" aria-label="Alerts" aria-live="polite">
      <header className="ov-alerts-head">
        <span>
          <strong>Not live: {stale.why}.</strong>{' '}
          <span className="muted">
            Last known, <AsOf at={stale.asOf} />: {last}.
          </span>
        </span>
      </header>
    </section>
  );
}

/**
 * Active alerts first and loud; the resolved record folded away. Not role="alert":
 * the page keeps that for the one error about the profile's own node.
 */
export function AlertsBar({ groups, now, nodeCount, unreachableCount, slowCount, onSelect, stale }: Props) {
  const { active, resolved } = groups;
  const critical = active.some((a) => a.severity === 'critical');
  const nodes = nodesSummary(nodeCount, unreachableCount, slowCount);
  if (stale !== undefined) return <StaleAlerts stale={stale} active={active.length} nodes={nodes} />;
  return (
    <section
      className={`ov-alerts ${active.length === 0 ? 'ov-alerts-ok' : critical ? 'ov-alerts-critical' : 'ov-alerts-warning'}`}
      data-testid="alerts"
      aria-label="Alerts"
      aria-live="polite"
    >
      <header className="ov-alerts-head">
        {active.length === 0 ? (
          <span>
            <strong>No active alerts.</strong>{' '}
            {nodeCount > 0 && (
              <span className="muted" data-testid="alerts-nodes">
                {nodes}.
              </span>
            )}
          </span>
        ) : (
          <strong>
            {active.length} active alert{active.length === 1 ? '' : 's'}
          </strong>
        )}
      </header>
      {active.length > 0 && (
        <ul className="ov-alert-list">
          {active.map((a) => (
            <AlertRow key={a.id} alert={a} now={now} onSelect={onSelect} />
          ))}
        </ul>
      )}
      {resolved.length > 0 && (
        <details className="ov-resolved">
          <summary>Recently resolved ({resolved.length})</summary>
          <ul className="ov-alert-list">
            {resolved.map((a) => (
              <AlertRow key={a.id} alert={a} now={now} onSelect={onSelect} />
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
