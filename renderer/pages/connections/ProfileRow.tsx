import { useState } from 'react';
import { usePermission } from '../../auth/usePermission';
import type { AppError } from '../../../app/errors';
import type { ConnectionState, ProfileView } from '../../../app/schemas/connections';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StateBadge } from '../../components/StateBadge';
import { TestResultView, type TestOutcome } from '../../components/TestResultView';
import { whereOf } from '../../lib/address';
import './connections.css';

interface Props {
  profile: ProfileView;
  state: ConnectionState | undefined;
  onEdit(): void;
  onRemoved(): void;
}

/** One saved profile: what it points at, its live state, and Test / Edit / Remove. */
export function ProfileRow({ profile: p, state, onEdit, onRemoved }: Props) {
  // Edit and Remove are absent for a role the contract refuses them, as for a read-only profile.
  const mayEdit = usePermission('connections.update');
  const mayRemove = usePermission('connections.remove');
  const bridge = useBridge();
  const [test, setTest] = useState<TestOutcome>();
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<AppError>();

  async function runTest() {
    setTest({ pending: true });
    try {
      setTest({ pending: false, result: await bridge.invoke('connections.test', { id: p.id }) });
    } catch (e) {
      setTest({ pending: false, error: toAppError(e) });
    }
  }

  async function remove() {
    setRemoving(true);
    setError(undefined);
    try {
      await bridge.invoke('connections.remove', { id: p.id });
      onRemoved();
    } catch (e) {
      setError(toAppError(e));
      setConfirming(false);
    } finally {
      setRemoving(false);
    }
  }

  // A ready state carries a detail only for news such as a sentinel failover ("failover: master is now …").
  const showDetail = state?.detail !== undefined;
  const where = whereOf(p);

  return (
    <li className="profile-row" data-testid="profile-row" data-profile-name={p.name} data-profile-id={p.id}>
      <div className="row-main">
        <span className="col-state">
          <StateBadge state={state} />
        </span>
        <span className="col-name" title={p.name}>
          {p.name}
          {(p.tags ?? []).map((t) => (
            <span key={t} className="tag tag-profile" data-testid="profile-tag">
              {t}
            </span>
          ))}
        </span>
        <span className="col-addr mono" title={where.all} data-topology={where.kind}>
          {where.kind !== 'standalone' && <span className="tag tag-topology">{where.kind}</span>}
          {where.text}
        </span>
        <span className="col-user">
          {p.username ?? <span className="muted">default</span>}
          {p.hasPassword && (
            <span className="tag" title="A password is stored">
              pw
            </span>
          )}
          <AnalystTag profile={p} />
        </span>
        <span className="col-tls">
          {p.tls.enabled ? 'on' : <span className="muted">off</span>}
          {p.tls.enabled && !p.tls.rejectUnauthorized && (
            <span className="tag tag-warn" title="Certificate verification is off">
              no verify
            </span>
          )}
        </span>
        <span className="col-source">
          {p.source}
          {p.definitionLocked && (
            <span className="tag" title={`This profile comes from the ${p.source} and cannot be edited here`}>
              locked
            </span>
          )}
          {p.readOnlyData && (
            <span className="tag" title="Its server's data is not written from here: keys, loads, console writes, config and clients">
              read-only
            </span>
          )}
        </span>
        <span className="col-actions">
          <button type="button" className="btn btn-small" onClick={runTest} disabled={test?.pending}>
            Test
          </button>
          {!p.definitionLocked && mayEdit.allowed && (
            <button type="button" className="btn btn-small" onClick={onEdit}>
              Edit
            </button>
          )}
          {!p.definitionLocked && mayRemove.allowed && (
            <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => setConfirming(true)} disabled={confirming}>
              Remove
            </button>
          )}
        </span>
      </div>
      {(showDetail || test !== undefined || confirming || error !== undefined) && (
        <div className="row-detail">
          {showDetail && (
            <span className={`state-detail state-detail-${state.state}`} data-testid="state-detail">
              {state.detail}
            </span>
          )}
          <TestResultView outcome={test} />
          {confirming && (
            <div className="confirm" role="group" aria-label={`Confirm removing ${p.name}`}>
              <span>
                Remove <strong>{p.name}</strong> and close its connections?
              </span>
              <button type="button" className="btn btn-small btn-danger" onClick={remove} disabled={removing}>
                Confirm remove
              </button>
              <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          )}
          <ErrorAlert error={error} title="Could not remove:" />
        </div>
      )}
    </li>
  );
}

/** How analysts reach the profile; a warning where they share its own user (and so all its rights). */
function AnalystTag({ profile: p }: { profile: ProfileView }) {
  if (p.analystAccess === 'shared') {
    return (
      <span className="tag tag-warn" data-testid="analysts-shared" title="Analysts connect with this profile's own user and password, with all its rights">
        analysts use this user
      </span>
    );
  }
  if (p.analystAccess === 'none') {
    return (
      <span className="tag" data-testid="analysts-none" title="Analysts neither see nor use this profile">
        ops only
      </span>
    );
  }
  return (
    <span className="tag" data-testid="analysts-own" title={`Analysts connect as the Redis user ${p.analystUsername ?? ''}`}>
      analysts: {p.analystUsername}
    </span>
  );
}
