import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_IDLE_SECONDS, type ClientMark } from '../../../app/schemas/clients';
import { readOnlyDataText } from '../../../app/readOnlyData';
import type { ProfileView } from '../../../app/schemas/connections';
import { usePermission } from '../../auth/usePermission';
import { useCall } from '../../bridge/useCall';
import { ChartLoading } from '../../components/charts/ChartFrame';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Segmented } from '../../components/Segmented';
import { WithProfile } from '../../components/WithProfile';
import { clock } from '../../lib/display';
import { formatCount } from '../../lib/format';
import { plural } from '../../lib/plural';
import { ClientTable } from './ClientTable';
import { ConfirmDialog } from './ConfirmDialog';
import { KillDialog } from './KillDialog';
import { killRefusedEverywhere } from './killRefused';
import { Legend } from './Legend';
import { memoryRows } from './memoryRows';
import { NodeCards } from './NodeCards';
import { PauseDialog } from './PauseDialog';
import { DEFAULT_VIEW, rowAt, sortBy, tableData, viewRefs, type Row, type SortKey, type TableView } from './rows';
import { useUnpause } from './useUnpause';
import './clients.css';

// Recharts is most of the bundle; it shares its lazy chunk with the other pages' charts.
const loadChart = () => import('./MemoryChart');
const MemoryChart = lazy(() => loadChart().then((m) => ({ default: m.MemoryChart })));

/** How often the list is read again while live. */
export const REFRESH_MS = 3_000;

const IDLE_CHOICES = [
  { value: 600, label: '10 min' },
  { value: DEFAULT_IDLE_SECONDS, label: '1 h' },
  { value: 86_400, label: '1 day' },
];

type Dialog = { kind: 'kill'; row: Row } | { kind: 'pause'; address: string } | { kind: 'unpause'; address: string };

/**
 * True one task after `ready` first was: a part drawn then (the chart, the costliest to mount) is
 * not drawn in the same main-thread task as the 10,000-row table.
 */
function useLater(ready: boolean): boolean {
  const [later, setLater] = useState(false);
  useEffect(() => {
    if (!ready || later) return;
    const t = setTimeout(() => setLater(true), 0);
    return () => clearTimeout(t);
  }, [ready, later]);
  return later;
}

/** CLIENT LIST of every node of the chosen profile, live, with its highlights, totals and the operator's kill and pause. */
export function ClientsPage() {
  return (
    <WithProfile purpose="see who is connected to it" testId="clients-no-profile">
      {(profile) => <ProfileClients profile={profile} />}
    </WithProfile>
  );
}

function ProfileClients({ profile }: { profile: ProfileView }) {
  const [live, setLive] = useState(true);
  const [idleSeconds, setIdleSeconds] = useState(DEFAULT_IDLE_SECONDS);
  const [view, setView] = useState<TableView>(DEFAULT_VIEW);
  const [dialog, setDialog] = useState<Dialog>();
  const [outcome, setOutcome] = useState<string>();
  const res = useCall('clients.list', { profileId: profile.id, idleSeconds }, live ? { intervalMs: REFRESH_MS } : {});
  // 10,000 clients every few seconds: the page renders each answer in the background (React yields to
  // input between components), and the chart's code loads while the first answer is on its way.
  // A new idle threshold is a new call: the last answer stays on screen until its own comes.
  const last = useRef(res.data);
  if (res.data !== undefined) last.current = res.data;
  const list = useDeferredValue(res.data ?? last.current);
  const chartShown = useLater(list !== undefined);
  useEffect(() => {
    void loadChart();
  }, []);
  const data = useMemo(() => tableData(list), [list]);
  const shown = useMemo(() => viewRefs(data, view), [data, view]);
  const memory = useMemo(() => memoryRows(list?.nodes ?? []), [list]);
  const memoryVersion = memory.map((m) => `${m.node}:${m.total}:${m.omem}:${m.qbuf}`).join(' ');
  const mayKill = usePermission('clients.kill');
  const mayPause = usePermission('clients.pause');
  const readOnlyData = profile.readOnlyData;
  // CLIENT KILL refused on every node (a managed service, an ACL): no Kill column; each node card says why in one line.
  const killRefused = killRefusedEverywhere(list?.nodes);
  const canKill = mayKill.allowed && !readOnlyData && !killRefused;
  const canPause = mayPause.allowed && !readOnlyData;
  const unpause = useUnpause(profile.id);

  // Stable callbacks: the table, the cards and the legend are memoized, and a refresh that has
  // not been rendered yet (the deferred list) redraws none of them.
  const onSort = useCallback((key: SortKey) => setView((v) => sortBy(v, key)), []);
  const onMark = useCallback((mark: ClientMark | undefined) => setView((v) => ({ ...v, mark })), []);
  const onKill = useCallback(
    (ref: number) => {
      const row = rowAt(data, ref);
      if (row !== undefined) setDialog({ kind: 'kill', row });
    },
    [data],
  );
  const onPause = useCallback((address: string) => setDialog({ kind: 'pause', address }), []);
  const onUnpause = useCallback((address: string) => setDialog({ kind: 'unpause', address }), []);

  const closed = (said: string | undefined) => {
    setDialog(undefined);
    if (said === undefined) return;
    setOutcome(said);
    res.refresh();
  };
  const nodes = useMemo(() => list?.nodes ?? [], [list]);
  const total = data.refs.length;

  return (
    <div className="page cl-page">
      <div className="toolbar">
        <p className="page-intro">
          <strong>{profile.name}</strong> · who is connected to its {nodes.length === 1 ? 'node' : `${nodes.length} nodes`}, read with CLIENT LIST
          {live ? ` every ${REFRESH_MS / 1000} s` : ''}
        </p>
        <span className="muted" data-testid="clients-updated" data-at={list?.at}>
          {list === undefined ? (res.loading ? 'Reading…' : '') : `${live ? 'Updated' : 'Paused at'} ${clock(list.at)}`}
        </span>
        <button type="button" className="btn" onClick={() => setLive((l) => !l)} aria-pressed={!live} data-testid="clients-live">
          {live ? 'Pause updates' : 'Resume updates'}
        </button>
        {!live && (
          <button type="button" className="btn" onClick={res.refresh} data-testid="clients-refresh">
            Read now
          </button>
        )}
      </div>
      <ErrorAlert error={res.error} title={`Cannot list the clients of ${profile.name}:`} />
      {outcome !== undefined && (
        <div className="alert cl-outcome" role="status" data-testid="clients-outcome">
          <span>{outcome}</span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setOutcome(undefined)} aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
      {(!canKill || !canPause) && (
        <p className="hint" data-testid="clients-why-readonly">
          {readOnlyData
            ? readOnlyDataText(profile, { refused: 'its clients cannot be killed or paused', instead: 'act on its clients' })
            : (mayKill.reason ?? mayPause.reason)}
        </p>
      )}
      {list !== undefined && (
        <>
          <NodeCards nodes={nodes} onPause={canPause ? onPause : undefined} onUnpause={canPause ? onUnpause : undefined} />
          {chartShown && memory.length > 0 && (
            <Suspense fallback={<ChartLoading />}>
              <MemoryChart rows={memory} version={memoryVersion} />
            </Suspense>
          )}
          <section className="panel cl-clients" aria-label="Clients">
            <Legend list={list} mark={view.mark} onMark={onMark} />
            <div className="cl-filters">
              <input
                type="search"
                placeholder="Filter: address, name, user, command, flags…"
                aria-label="Filter the clients"
                value={view.text}
                onChange={(e) => setView((v) => ({ ...v, text: e.target.value }))}
                data-testid="clients-filter"
              />
              {nodes.length > 1 && (
                <select
                  aria-label="Node"
                  value={view.node ?? ''}
                  onChange={(e) => setView((v) => ({ ...v, node: e.target.value === '' ? undefined : e.target.value }))}
                  data-testid="clients-node-filter"
                >
                  <option value="">Every node</option>
                  {nodes.map((n) => (
                    <option key={n.address} value={n.address}>
                      {n.address}
                    </option>
                  ))}
                </select>
              )}
              <span className="cl-idle">
                <span className="muted">Long idle from</span>
                <Segmented label="Long idle from" options={IDLE_CHOICES} value={idleSeconds} onChange={setIdleSeconds} testId="clients-idle" />
              </span>
              <span className="muted cl-count" data-testid="clients-count" data-shown={shown.length} data-total={total}>
                {shown.length === total ? `${plural(total, 'client')}` : `${formatCount(shown.length)} of ${plural(total, 'client')}`}
              </span>
            </div>
            <ClientTable
              data={data}
              refs={shown}
              view={view}
              onSort={onSort}
              onKill={canKill ? onKill : undefined}
              empty={total === 0 ? 'No client listed.' : 'No client matches the filter.'}
            />
          </section>
        </>
      )}
      {dialog?.kind === 'kill' && <KillDialog profileId={profile.id} row={dialog.row} onClose={closed} />}
      {dialog?.kind === 'pause' && <PauseDialog profileId={profile.id} address={dialog.address} onClose={closed} />}
      {dialog?.kind === 'unpause' && (
        <ConfirmDialog
          title={`Unpause clients on ${dialog.address}?`}
          confirmLabel="Unpause"
          busy={unpause.busy}
          error={unpause.error}
          onConfirm={() => void unpause.run(dialog.address).then((said) => said !== undefined && closed(said))}
          onClose={() => closed(undefined)}
          testId="clients-unpause-dialog"
        >
          <p>
            <code>CLIENT UNPAUSE</code> lets the commands held on <span className="mono">{dialog.address}</span> run now, before the pause would have ended.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
