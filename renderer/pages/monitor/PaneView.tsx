import { useCallback, useState } from 'react';
import type { AppError } from '../../../app/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RestrictionNotice } from '../../components/RestrictionNotice';
import { AsOf } from '../../components/LiveState';
import { downloadText } from '../../lib/download';
import { formatCount } from '../../lib/format';
import { isReplicaRole, roleLabel } from '../../lib/nodes';
import { Counters } from './Counters';
import { exportName, toMonitorText, toNdjson, type ExportFormat } from './exportLines';
import { argsText, clockMs } from './lineText';
import { LineList } from './LineList';
import { monitorRestriction } from './monitorRefusal';
import type { Row } from './rows';
import type { MonitorSession, Pane } from './session';
import { TopTables } from './TopTables';
import { MAX_DELAY_MS, type DelaySummary } from './writeMatcher';

const MAX_DELAY_S = MAX_DELAY_MS / 1000;

interface Props {
  session: MonitorSession;
  pane: Pane;
  color: string;
  query: string;
  /** Whether a watched master makes replication delays possible. */
  hasMaster: boolean;
  /** Whether replicas are watched beside this node. */
  hasReplicas: boolean;
  /** The pane's own error is shown beside the filter instead (a refused filter value). */
  errorShownElsewhere: boolean;
  /** Hot keys link to the Keys page of this profile. */
  profileId: string;
}

type Status = 'live' | 'connecting' | 'reconnecting' | 'stopped' | 'ended' | 'error' | 'idle' | 'disconnected';

function statusOf(p: Pane): Status {
  // The link to the Cacheboard server dropped: not the node's error; the pane resumes when it returns.
  if (p.feed.error?.code === 'DISCONNECTED') return 'disconnected';
  if (p.feed.error !== undefined) return 'error';
  if (p.feed.ended !== undefined) return 'ended';
  if (p.key === undefined || !p.live) return p.feed.state === undefined ? 'idle' : 'stopped';
  return p.feed.state ?? 'connecting';
}

const BADGE: Record<Status, string> = {
  live: 'badge-ready',
  connecting: 'badge-connecting',
  reconnecting: 'badge-reconnecting',
  stopped: 'badge-closed',
  ended: 'badge-closed',
  error: 'badge-error',
  idle: 'badge-closed',
  disconnected: 'badge-reconnecting',
};

const ms = (v: number) => `${v.toFixed(Math.abs(v) < 10 ? 2 : 1)} ms`;

function DelayLine({ delays, hasMaster, sampleEvery }: { delays: DelaySummary | undefined; hasMaster: boolean; sampleEvery: number }) {
  if (!hasMaster) return <p className="hint mon-delay">Watch the master as well to see how far behind this replica is.</p>;
  if (sampleEvery > 1) {
    return (
      <p className="hint mon-delay" data-testid="monitor-delay" data-value="">
        Replication delay not measured: with 1 line in {formatCount(sampleEvery)} kept, each node keeps different writes.
      </p>
    );
  }
  return (
    <p
      className="mon-delay"
      data-testid="monitor-delay"
      data-value={delays?.latest ?? ''}
      data-p50={delays?.p50 ?? ''}
      data-min={delays?.min ?? ''}
      title="The same write on the master and here, paired by its place in the stream; both times are the servers' clocks (nodes on other hosts add their clock difference)."
    >
      <span className="mon-delay-label">Replication delay</span>{' '}
      {delays === undefined ? (
        <span className="muted">
          no write paired yet: pairing starts once the master’s stream has been open {MAX_DELAY_S} s, and measures delays up to {MAX_DELAY_S} s
        </span>
      ) : (
        <>
          <strong>{ms(delays.latest)}</strong>
          <span className="muted">
            {' '}
            latest · p50 {ms(delays.p50)} · max {ms(delays.max)} over the last {formatCount(delays.window)} · {formatCount(delays.pairs)} writes paired
          </span>
        </>
      )}
    </p>
  );
}

function LineDetail({ row }: { row: Row | undefined }) {
  if (row === undefined) return <p className="hint mon-detail-hint">Click a line to read it whole.</p>;
  if (row.kind === 'mark') return <p className="mon-detail mono">{row.text}</p>;
  const l = row.line;
  return (
    <div className="mon-detail" data-testid="monitor-detail">
      <div className="mon-detail-head mono muted">
        {clockMs(l.ts)} · db {l.db} · {l.client}
        {l.truncated && ' · arguments cut at 1 KB'}
        {l.moreArgs > 0 && ` · ${formatCount(l.moreArgs)} more arguments not kept`}
      </div>
      <div className="mon-detail-text mono">
        <strong>{l.command}</strong> {argsText(l)}
      </div>
    </div>
  );
}

function ExportButtons({ session, pane }: { session: MonitorSession; pane: Pane }) {
  const save = (format: ExportFormat) => {
    const rows = session.rows(pane);
    const name = exportName(pane.address, format, new Date());
    if (format === 'ndjson') downloadText(name, toNdjson(rows, pane.address), 'application/x-ndjson');
    else downloadText(name, toMonitorText(rows), 'text/plain;charset=utf-8');
  };
  return (
    <span className="mon-export" role="group" aria-label={`Export the lines of ${pane.address}`}>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => save('ndjson')}
        title="The buffered lines, one JSON object a line"
        data-testid="monitor-export-ndjson"
      >
        NDJSON
      </button>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => save('text')}
        title="The buffered lines in MONITOR's own format"
        data-testid="monitor-export-text"
      >
        Text
      </button>
    </span>
  );
}

/** The newest thing the pane heard from its node (a line or its stats): what it shows is as of then. */
function lastHeard(p: Pane): number | undefined {
  const row = p.feed.rows.last();
  const lineAt = row?.kind === 'line' ? row.line.ts : undefined;
  const statsAt = p.feed.stats?.at;
  if (lineAt === undefined) return statsAt;
  return statsAt === undefined ? lineAt : Math.max(lineAt, statsAt);
}

/** One node: its status, counters, lines, replication delay and top tables. */
export function PaneView({ session, pane, color, query, hasMaster, hasReplicas, errorShownElsewhere, profileId }: Props) {
  const [selected, setSelected] = useState<Row | undefined>(undefined);
  const onSelect = useCallback((r: Row) => setSelected(r), []);
  const feed = pane.feed;
  const view = session.view(pane, query);
  const status = statusOf(pane);
  const searching = query.trim() !== '';
  const replica = isReplicaRole(pane.role);
  return (
    <section className="panel mon-pane" data-testid="monitor-pane" data-address={pane.address} data-status={status} aria-label={`MONITOR of ${pane.address}`}>
      <header className="mon-pane-head">
        <span className="mon-swatch" style={{ background: color }} aria-hidden="true" />
        <span className="mono mon-pane-address">{pane.address}</span>
        <span className="tag">{roleLabel(pane.role)}</span>
        <span className={`badge ${BADGE[status]}`} data-testid="monitor-status" title={feed.stateMessage}>
          {status}
        </span>
        {status !== 'live' && lastHeard(pane) !== undefined && <AsOf at={lastHeard(pane) ?? 0} className="muted mon-as-of" />}
        <ExportButtons session={session} pane={pane} />
      </header>
      {replica ? (
        <DelayLine delays={pane.delays?.summary()} hasMaster={hasMaster} sampleEvery={session.sampleEvery} />
      ) : (
        hasReplicas && <p className="hint mon-delay">Each replica pane pairs its writes with the same writes seen here.</p>
      )}
      {feed.error !== undefined && !errorShownElsewhere && feed.error.code !== 'DISCONNECTED' && <MonitorStopped error={feed.error} address={pane.address} />}
      {status === 'reconnecting' && feed.stateMessage !== undefined && <p className="hint hint-warn">{feed.stateMessage} Reconnecting…</p>}
      <Counters feed={feed} />
      {feed.transportDropped > 0 && (
        <p className="hint hint-warn">{formatCount(feed.transportDropped)} batches were lost on the way to this page; the counters above stay exact.</p>
      )}
      {searching && (
        <p className="hint" data-testid="monitor-search-count">
          {formatCount(view.length)} of {formatCount(feed.rows.length)} buffered lines match
        </p>
      )}
      <LineList view={view} query={query} paused={session.paused} selected={selected?.seq} onSelect={onSelect} label={`Lines from ${pane.address}`} />
      <LineDetail row={selected} />
      <TopTables stats={feed.stats} live={pane.live} profileId={profileId} />
    </section>
  );
}

/** Why the stream stopped: a refused MONITOR as the one line of a missing command, anything else as an error. */
function MonitorStopped({ error, address }: { error: AppError; address: string }) {
  const refused = monitorRestriction(error);
  if (refused !== undefined) return <RestrictionNotice restrictions={[refused]} />;
  return <ErrorAlert error={error} title={`MONITOR of ${address} stopped:`} />;
}
