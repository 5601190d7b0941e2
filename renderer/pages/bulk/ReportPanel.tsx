import type { ReactNode } from 'react';
import type { LoadReport } from '../../../app/schemas/bulk';
import { RestrictionNotice } from '../../components/RestrictionNotice';
import { formatBytes, formatCount, formatSeconds } from '../../lib/format';
import { plural } from '../../lib/plural';
import { pageWords } from '../../lib/formInput';
import { NodesTable } from './NodesTable';
import { LiveWritesRow, StagingLeftRow } from './SwapRows';

function Cell({ label, children, testId, value }: { label: string; children: ReactNode; testId?: string; value?: string | number }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        <span className="stat-value" data-testid={testId} data-value={value}>
          {children}
        </span>
      </dd>
    </div>
  );
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** What became of the live DB when a swap did not switch: only what the server's check measured. */
function liveState(r: LoadReport): string {
  const c = r.liveCheck;
  if (r.mode !== 'swap' || r.swapped) return '';
  if (c === undefined) return `; db${r.targetDb} was not switched`;
  return c.unchanged ? `; db${r.targetDb} is untouched (checked)` : `; db${r.targetDb} CHANGED during the load (see Live DB below)`;
}

function headline(r: LoadReport): string {
  const where = r.mode === 'swap' && r.swapped ? `db${r.targetDb} (swapped in from db${r.stagingDb ?? '?'})` : `db${r.targetDb}`;
  switch (r.outcome) {
    case 'ok':
      return `Loaded ${plural(r.records, 'record')} from ${r.file} into ${where} in ${formatSeconds(r.seconds)}.`;
    case 'failed':
      return `The load of ${r.file} failed${liveState(r)}.`;
    case 'cancelled':
      return `The load of ${r.file} was cancelled${liveState(r)}.`;
  }
}

/** The opt-in a refusal names, as the setup labels it. */
const OPT_INS: Record<string, string> = {
  allowEmpty: 'Allow an empty or much smaller DB',
  allowEvictionRisk: 'Start even if Redis may evict',
  allowLiveWrites: 'Switch even if the live DB was written to',
};

/** The final report: outcome, figures, verification, persistence, replicas and the first errors. */
export function ReportPanel({ report: r, actions }: { report: LoadReport; actions: ReactNode }) {
  const v = r.verify;
  return (
    <section className={`panel bulk-report is-${r.outcome}`} data-testid="bulk-report" aria-label="Load report">
      <div className={`bulk-outcome is-${r.outcome}`} role="status">
        <strong className="bulk-outcome-word" data-testid="bulk-outcome">
          {r.outcome}
        </strong>
        <span className="bulk-outcome-text">{headline(r)}</span>
        {r.error !== undefined && (
          <span className="bulk-outcome-error" data-testid="bulk-error">
            {pageWords(r.error.message)} <span className="alert-code">{r.error.code}</span>
          </span>
        )}
        {r.error?.field !== undefined && OPT_INS[r.error.field] !== undefined && (
          <span className="hint" data-testid="bulk-opt-in-hint">
            To go ahead anyway, tick “{OPT_INS[r.error.field]}” beside the mode and load again.
          </span>
        )}
      </div>

      <dl className="stat-grid bulk-report-grid">
        <Cell label="Records" testId="bulk-report-records" value={r.records}>
          {formatCount(r.records)}
        </Cell>
        <Cell label="Commands" value={r.commands}>
          {formatCount(r.commands)}
        </Cell>
        <Cell label="Errors" testId="bulk-report-errors" value={r.errors}>
          {formatCount(r.errors)}
        </Cell>
        <Cell label="Time" value={r.seconds}>
          {formatSeconds(r.seconds)}
        </Cell>
        <Cell label="Rows/s" value={r.recordsPerSec}>
          {formatCount(r.recordsPerSec)}
        </Cell>
        <Cell label="Swapped" testId="bulk-report-swapped" value={yesNo(r.swapped)}>
          {yesNo(r.swapped)}
        </Cell>
        <Cell label="Staging DB">{r.stagingDb === undefined ? '—' : `db${r.stagingDb}`}</Cell>
        <Cell label="Mode / format">
          {r.mode} · {r.format}
        </Cell>
      </dl>

      <div className="bulk-report-details">
        <table className="data-table bulk-kv">
          <caption>Checks</caption>
          <tbody>
            <tr>
              <th scope="row">Replies</th>
              <td>
                {v === undefined ? (
                  <span className="muted">not verified</span>
                ) : (
                  <Verdict ok={v.replies}>
                    {v.replies ? 'one per command' : 'missing'} ({formatCount(r.replies)} of {formatCount(r.commands)})
                  </Verdict>
                )}
              </td>
            </tr>
            <tr>
              <th scope="row">Keys</th>
              <td>
                {v === undefined ? (
                  <span className="muted">not verified</span>
                ) : (
                  <>
                    <Verdict ok={v.keys === 'ok' ? true : v.keys === 'mismatch' ? false : undefined}>{v.keys}</Verdict>
                    {(v.expectedKeys !== undefined || v.dbsize !== undefined) && (
                      <span className="bulk-kv-sub">
                        expected {v.expectedKeys === undefined ? '—' : formatCount(v.expectedKeys)} · DBSIZE{' '}
                        {v.dbsize === undefined ? '—' : formatCount(v.dbsize)}
                      </span>
                    )}
                    {v.note !== undefined && <span className="bulk-kv-sub">{v.note}</span>}
                  </>
                )}
              </td>
            </tr>
            <tr>
              <th scope="row">Live DB</th>
              <td data-testid="bulk-report-live">
                <LiveDb r={r} />
              </td>
            </tr>
            <LiveWritesRow report={r} />
            <StagingLeftRow report={r} />
            <tr>
              <th scope="row">BGSAVE</th>
              <td>
                {r.bgsave === undefined ? (
                  <span className="muted">not requested</span>
                ) : (
                  <>
                    {r.bgsave.status} <span className="bulk-kv-sub">{formatSeconds(r.bgsave.seconds)}</span>
                  </>
                )}
              </td>
            </tr>
            <tr>
              <th scope="row">Save config</th>
              <td>
                {r.saveConfig === undefined ? (
                  <span className="muted">unchanged</span>
                ) : (
                  <>
                    <span className="mono">{r.saveConfig.original === '' ? '""' : r.saveConfig.original}</span>{' '}
                    <Verdict ok={r.saveConfig.restored}>{r.saveConfig.restored ? 'restored' : 'NOT restored'}</Verdict>
                    {r.saveConfig.note !== undefined && <span className="bulk-kv-sub">{r.saveConfig.note}</span>}
                  </>
                )}
              </td>
            </tr>
            {r.staleCleaned !== undefined && r.staleCleaned.length > 0 && (
              <tr>
                <th scope="row">Left by a crash</th>
                <td data-testid="bulk-report-stale">
                  {r.staleCleaned.map((c) => (
                    <div key={c.db}>
                      Flushed stale staging DB {c.db}{' '}
                      <span className="bulk-kv-sub">
                        {plural(c.keys, 'key')} of load {c.jobId} from {c.host}
                      </span>
                    </div>
                  ))}
                </td>
              </tr>
            )}
          </tbody>
        </table>

        {r.nodes !== undefined && r.nodes.length > 0 && <NodesTable nodes={r.nodes} redirects={r.redirects} />}

        {(r.replicas !== undefined || (r.replicaLag !== undefined && r.replicaLag.length > 0)) && <ReplicasTable r={r} />}
      </div>

      {r.restrictions !== undefined && r.restrictions.length > 0 && (
        <div className="bulk-not-protected" data-testid="bulk-not-protected">
          <h3>Not protected</h3>
          <RestrictionNotice restrictions={r.restrictions} />
        </div>
      )}

      {r.warnings.length > 0 && (
        <div className="bulk-warnings">
          <h3>Warnings</h3>
          <ul>
            {r.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      )}

      {r.firstErrors.length > 0 && (
        <div className="bulk-first-errors">
          <table className="data-table" data-testid="bulk-first-errors">
            <caption>
              First errors{' '}
              <span className="muted">
                ({formatCount(r.firstErrors.length)} of {formatCount(r.errors)})
              </span>
            </caption>
            <thead>
              <tr>
                <th scope="col">Position</th>
                <th scope="col">Redis said</th>
              </tr>
            </thead>
            <tbody>
              {r.firstErrors.map((e, i) => (
                <tr key={i}>
                  <th scope="row" className="bulk-pos">
                    {e.position}
                  </th>
                  <td className="bulk-err-msg">{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <div className="form-actions">{actions}</div>
    </section>
  );
}

/** Key counts compared before the switch, the live DB's check after a load that did not switch, and evictions. */
function LiveDb({ r }: { r: LoadReport }) {
  const k = r.keyCounts;
  const c = r.liveCheck;
  if (k === undefined && c === undefined && !r.evictedKeys) return <span className="muted">not compared</span>;
  return (
    <>
      {k !== undefined && (
        <span data-testid="bulk-key-counts" data-new={k.new} data-live={k.live}>
          new {plural(k.new, 'key')} · live {plural(k.live, 'key')}
        </span>
      )}
      {c !== undefined && (
        <span className="bulk-kv-sub">
          <Verdict ok={c.unchanged}>{c.unchanged ? 'untouched' : 'CHANGED'}</Verdict> db{c.db}: {plural(c.keysBefore, 'key')} before, {formatCount(c.keysAfter)}{' '}
          after; {formatCount(c.missing)} of {formatCount(c.sampled)} sampled keys gone
        </span>
      )}
      {r.evictedKeys !== undefined && r.evictedKeys > 0 && (
        <span className="bulk-kv-sub">
          <Verdict ok={false}>{plural(r.evictedKeys, 'key')} evicted</Verdict> by Redis during the load
        </span>
      )}
    </>
  );
}

/**
 * Each replica: the most it lagged while the pipe ran (sampled), and after --wait-replicas its
 * offset and whether it caught up. A figure not measured is a dash, never 0.
 */
function ReplicasTable({ r }: { r: LoadReport }) {
  const lag = new Map((r.replicaLag ?? []).map((l) => [l.addr, l]));
  const final = new Map((r.replicas ?? []).map((x) => [x.addr, x]));
  const addrs = [...new Set([...lag.keys(), ...final.keys()])];
  return (
    <table className="data-table" data-testid="bulk-replicas">
      <caption>Replicas</caption>
      <thead>
        <tr>
          <th scope="col">Address</th>
          <th scope="col" className="num">
            Most behind during the load
          </th>
          <th scope="col" className="num">
            Offset
          </th>
          <th scope="col">Caught up</th>
        </tr>
      </thead>
      <tbody>
        {addrs.length === 0 ? (
          <tr>
            <td colSpan={4} className="empty">
              No replicas connected.
            </td>
          </tr>
        ) : (
          addrs.map((addr) => {
            const l = lag.get(addr);
            const x = final.get(addr);
            return (
              <tr key={addr}>
                <th scope="row">{addr}</th>
                <td className="num">{l === undefined ? '—' : `${formatBytes(l.maxLagBytes)} · ${formatCount(l.maxLagSeconds)} s`}</td>
                <td className="num">{x === undefined ? '—' : formatCount(x.offset)}</td>
                <td>
                  {x === undefined ? (
                    <span className="muted">not waited for</span>
                  ) : (
                    <Verdict ok={x.acked}>{x.acked ? 'yes' : `no${x.behind === undefined ? '' : `, ${formatBytes(x.behind)} behind`}`}</Verdict>
                  )}
                </td>
              </tr>
            );
          })
        )}
      </tbody>
    </table>
  );
}

function Verdict({ ok, children }: { ok: boolean | undefined; children: ReactNode }) {
  return <span className={`bulk-verdict ${ok === undefined ? 'is-neutral' : ok ? 'is-ok' : 'is-bad'}`}>{children}</span>;
}
