import { useEffect, useState } from 'react';
import { usePermission } from '../../auth/usePermission';
import type { NodeSample } from '../../../app/schemas/metrics';
import { formatBytes, formatCount } from '../../lib/format';
import { ACTION_WARNINGS, describeResult, isOkStatus, latestSummary, runKey, type ActionName } from './actions';
import { clock, formatMicros, formatSecondsShort, since } from '../../lib/display';
import { InlineError } from './InlineError';
import { RestrictionNotice } from '../../components/RestrictionNotice';
import type { Restriction } from '../../../app/schemas/restrictions';
import type { OpsActions } from './useOpsActions';

export interface PersistenceNode {
  address: string;
  color: string;
  sample: NodeSample | undefined;
}

interface Props {
  nodes: readonly PersistenceNode[];
  selected: string | undefined;
  ops: OpsActions;
  /** Server time of the latest tick. */
  now: number;
}

const ACTIONS: ActionName[] = ['bgsave', 'bgrewriteaof'];
const COMMAND: Record<ActionName, string> = { bgsave: 'BGSAVE', bgrewriteaof: 'BGREWRITEAOF' };

function Elapsed({ since: from }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, []);
  return <span className="ov-elapsed">{formatSecondsShort(Math.max(0, (now - from) / 1000))}</span>;
}

function Spinner() {
  return <span className="ov-spinner" aria-hidden="true" />;
}

function PersistenceRow({ n, selected, now }: { n: PersistenceNode; selected: boolean; now: number }) {
  const p = n.sample?.up ? n.sample.persistence : undefined;
  const head = (
    <th scope="row" className="mono">
      <span className="ov-swatch" style={{ background: n.color }} aria-hidden="true" /> {n.address}
    </th>
  );
  if (n.sample?.up !== true || p === undefined) {
    return (
      <tr className={selected ? 'is-selected' : undefined} data-address={n.address}>
        {head}
        <td colSpan={6} className="muted">
          {n.sample?.up === true ? 'No persistence info.' : 'Node down.'}
        </td>
      </tr>
    );
  }
  const saved = p.rdbLastSaveTime > 0;
  return (
    <tr className={selected ? 'is-selected' : undefined} data-address={n.address}>
      {head}
      <td>
        {p.rdbBgsaveInProgress ? (
          <span className="ov-running">
            <Spinner /> saving…
          </span>
        ) : (
          <span className={isOkStatus(p.rdbLastBgsaveStatus) ? 'ov-ok' : 'ov-bad'}>{p.rdbLastBgsaveStatus}</span>
        )}
      </td>
      <td>
        {p.rdbLastBgsaveSeconds >= 0 ? formatSecondsShort(p.rdbLastBgsaveSeconds) : '—'}
        {saved && (
          <span className="muted" title={`Last save at ${clock(p.rdbLastSaveTime)}`}>
            {' '}
            · {since(p.rdbLastSaveTime, now)} ago
          </span>
        )}
      </td>
      <td className="num">{formatCount(p.rdbChangesSinceLastSave)}</td>
      <td>
        {p.aofEnabled ? <span className="ov-ok">on</span> : <span className="muted">off</span>}
        {p.aofRewriteInProgress && (
          <span className="ov-running">
            {' '}
            <Spinner /> rewriting…
          </span>
        )}
        {!p.aofRewriteInProgress && !isOkStatus(p.aofLastRewriteStatus) && <span className="ov-bad"> last rewrite {p.aofLastRewriteStatus}</span>}
      </td>
      <td className="num">{p.aofSizeBytes === undefined ? '—' : formatBytes(p.aofSizeBytes)}</td>
      <td className="num">{p.latestForkUsec > 0 ? formatMicros(p.latestForkUsec) : '—'}</td>
    </tr>
  );
}

/**
 * RDB and AOF state of every node, and BGSAVE / BGREWRITEAOF on one chosen node
 * behind a confirm step: both fork a production server.
 */
export function PersistencePanel({ nodes, selected, ops, now }: Props) {
  // The target follows the page's selection until chosen here.
  const [choice, setChoice] = useState<{ for: string | undefined; address: string } | undefined>(undefined);
  const [confirm, setConfirm] = useState<{ action: ActionName; address: string } | undefined>(undefined);
  const target = choice !== undefined && choice.for === selected && nodes.some((n) => n.address === choice.address) ? choice.address : selected;
  const targetNode = nodes.find((n) => n.address === target);
  const targetP = targetNode?.sample?.up ? targetNode.sample.persistence : undefined;
  const busy = (a: ActionName) => ops.running.some((r) => runKey(r.address, r.action) === runKey(target ?? '', a));
  const forking = targetP?.rdbBgsaveInProgress === true || targetP?.aofRewriteInProgress === true;
  const pending = confirm !== undefined && confirm.address === target ? confirm : undefined;
  const history = ops.history ?? [];
  const summary = latestSummary(history);
  const errors = ops.finished.filter((f) => f.error !== undefined).slice(0, 3);
  // Asked beforehand, or refused at run time: one line per command, and its button stays off.
  const refused = new Map<string, Restriction>(
    [...ops.restrictions, ...ops.finished.flatMap((f) => (f.refused === undefined ? [] : [f.refused]))].map((r) => [r.command, r]),
  );
  // INFO persistence is how a run is timed: without it neither action is offered.
  const lacks = (a: ActionName) => refused.has(COMMAND[a]) || refused.has('INFO');
  // BGSAVE and BGREWRITEAOF fork the server: the contract keeps them to its role, and so does the page.
  const may = usePermission('metrics.action');

  return (
    <section className="panel ov-persistence" data-testid="persistence" aria-label="Persistence">
      <header className="ov-panel-head">
        <h2>Persistence</h2>
        {summary !== '' && (
          <span className="ov-summary" data-testid="actions-summary">
            Last: {summary}
          </span>
        )}
      </header>
      <div className="ov-actionbar">
        <label className="ov-target">
          <span className="muted">Node</span>
          <select
            value={target ?? ''}
            onChange={(e) => {
              setChoice({ for: selected, address: e.target.value });
              setConfirm(undefined);
            }}
            aria-label="Node for BGSAVE and BGREWRITEAOF"
          >
            {nodes.map((n) => (
              <option key={n.address} value={n.address}>
                {n.address}
                {n.sample?.up === false ? ' (down)' : ''}
              </option>
            ))}
          </select>
        </label>
        {ACTIONS.map((a) => (
          <button
            key={a}
            type="button"
            className="btn btn-small"
            data-testid={`action-${a}`}
            disabled={!may.allowed || target === undefined || targetNode?.sample?.up !== true || busy(a) || forking || lacks(a)}
            title={
              may.reason ??
              (lacks(a) ? `${COMMAND[a]} is not available here` : forking ? 'A background save or AOF rewrite is already running on this node' : undefined)
            }
            onClick={() => target !== undefined && setConfirm({ action: a, address: target })}
          >
            {COMMAND[a]}
          </button>
        ))}
        {may.reason !== undefined && (
          <span className="hint" data-testid="action-role-note">
            {may.reason}
          </span>
        )}
        {ops.running.map((r) => (
          <span key={runKey(r.address, r.action)} className="ov-running" data-testid="action-running">
            <Spinner /> {COMMAND[r.action]} on <span className="mono">{r.address}</span> · <Elapsed since={r.startedAt} />
          </span>
        ))}
      </div>
      {pending !== undefined && (
        <div className="confirm ov-confirm" role="group" aria-label="Confirm action">
          <span>
            <strong>
              {COMMAND[pending.action]} on <span className="mono">{pending.address}</span>?
            </strong>{' '}
            It {ACTION_WARNINGS[pending.action]}
          </span>
          <span className="ov-confirm-buttons">
            <button
              type="button"
              className="btn btn-small btn-danger"
              data-testid="action-confirm"
              onClick={() => {
                ops.run(pending.address, pending.action);
                setConfirm(undefined);
              }}
            >
              Run {COMMAND[pending.action]}
            </button>
            <button type="button" className="btn btn-small" onClick={() => setConfirm(undefined)}>
              Cancel
            </button>
          </span>
        </div>
      )}
      <RestrictionNotice restrictions={[...refused.values()]} />
      {errors.map((f) =>
        f.error === undefined ? null : <InlineError key={runKey(f.address, f.action)} error={f.error} title={`${COMMAND[f.action]} on ${f.address} failed:`} />,
      )}
      <div className="ov-persistence-grid">
        <table className="data-table ov-table">
          <caption>Per node</caption>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col" title="rdb_bgsave_in_progress, else rdb_last_bgsave_status">
                RDB
              </th>
              <th scope="col">Last save</th>
              <th scope="col" className="num">
                Changes
              </th>
              <th scope="col">AOF</th>
              <th scope="col" className="num">
                AOF size
              </th>
              <th scope="col" className="num" title="latest_fork_usec: how long the last fork paused the node">
                Fork
              </th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((n) => (
              <PersistenceRow key={n.address} n={n} selected={n.address === selected} now={now} />
            ))}
          </tbody>
        </table>
        <table className="data-table ov-table" data-testid="actions-table">
          <caption>Recent actions</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Node</th>
              <th scope="col">Result</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {history.length === 0 ? (
              <tr>
                <td colSpan={4} className="empty">
                  {ops.historyError !== undefined ? ops.historyError.message : 'No BGSAVE or AOF rewrite run from here yet.'}
                </td>
              </tr>
            ) : (
              history.slice(0, 12).map((r) => (
                <tr key={`${r.startedAt} ${r.address} ${r.action}`} data-action={r.action}>
                  <td className="mono">{clock(r.startedAt)}</td>
                  <td className="mono">{r.address}</td>
                  <td>{describeResult(r)}</td>
                  <td className={isOkStatus(r.status) ? 'ov-ok' : 'ov-bad'}>{r.status}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
