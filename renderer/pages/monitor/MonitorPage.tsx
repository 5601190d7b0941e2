import { lazy, Suspense, useMemo, useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { useLinkStatus } from '../../bridge/BridgeContext';
import { useCall } from '../../bridge/useCall';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoProfile } from '../../components/NoProfile';
import { PauseButtons } from '../../components/PauseButtons';
import { besideField } from '../../lib/formInput';
import { colorAt, isReplicaRole } from '../../lib/nodes';
import { useProfiles } from '../../profiles/ProfilesContext';
import { controlOf, DEFAULT_FILTER, toFilter, type FilterControl, type FilterForm } from './filterForm';
import { FilterPanel } from './FilterPanel';
import { NodePicker } from './NodePicker';
import { PaneView } from './PaneView';
import type { Pane } from './session';
import { useMonitorSession } from './useMonitorSession';
import './monitor.css';

// Recharts is most of the bundle; it shares its lazy chunk with the other pages' charts.
const RateChart = lazy(() => import('./RateChart').then((m) => ({ default: m.RateChart })));

/**
 * Live MONITOR of one node, or of a master and its replicas side by side. The
 * server filters and batches; this page keeps the last lines per node in a ring,
 * renders only the rows in view and redraws at most once per animation frame.
 */
export function MonitorPage() {
  const { profiles, selected, loading, error } = useProfiles();
  if (selected === undefined) {
    return <NoProfile loading={loading && profiles.length === 0} error={error} purpose="watch its command stream" testId="monitor-no-profile" />;
  }
  return <ProfileMonitor key={selected.id} profile={selected} />;
}

function CostBanner() {
  return (
    <div className="mon-cost" role="note" data-testid="monitor-cost">
      <strong>MONITOR costs the server.</strong> Every command a watched node runs is copied to Cacheboard: the Redis documentation measured one MONITOR client
      cutting SET throughput from about 95k/s to 42k/s. Viewers of a node share one MONITOR connection, and each watch stops after 10 minutes.
    </div>
  );
}

/** A refused filter value ends every pane's stream with the same VALIDATION error: say it once, beside its input. */
function filterErrors(panes: readonly Pane[]): Partial<Record<FilterControl, string>> {
  for (const p of panes) {
    const e = p.feed.error;
    const control = e?.code === 'VALIDATION' ? controlOf(e.field) : undefined;
    if (e !== undefined && control !== undefined) return { [control]: besideField(e.message, e.field) };
  }
  return {};
}

function ProfileMonitor({ profile }: { profile: ProfileView }) {
  const nodes = useCall('monitor.nodes', { profileId: profile.id });
  const { epoch } = useLinkStatus();
  const [picked, setPicked] = useState<string[] | undefined>(undefined);
  const [draft, setDraft] = useState<FilterForm>(DEFAULT_FILTER);
  const [applied, setApplied] = useState<FilterForm>(DEFAULT_FILTER);
  const [running, setRunning] = useState(false);
  const [run, setRun] = useState(0);
  const [query, setQuery] = useState('');

  const tree = nodes.data?.nodes ?? [];
  // The first node that answers: with the master down, a Start watches a live replica, not the dead master.
  const first = (tree.find((n) => n.up) ?? tree[0])?.address;
  const chosen = picked ?? (first === undefined ? [] : [first]);
  const watched = tree.filter((n) => chosen.includes(n.address));
  const colors = useMemo(() => new Map((nodes.data?.nodes ?? []).map((n, i) => [n.address, colorAt(i)])), [nodes.data]);
  const filter = toFilter(applied);
  const session = useMonitorSession({
    profileId: profile.id,
    nodes: watched.map((n) => ({ address: n.address, role: n.role })),
    filter,
    running,
    generation: `${run}:${epoch}`,
  });

  const panes = session.list();
  const hasMaster = panes.some((p) => !isReplicaRole(p.role));
  const hasReplicas = panes.some((p) => isReplicaRole(p.role));
  const errors = filterErrors(panes);
  const ended = panes.find((p) => p.feed.ended !== undefined)?.feed.ended;
  const live = panes.some((p) => p.live);
  // Changes with each node's stats event and with the panes shown: what the chart redraws on.
  const chartKey = panes.map((p) => `${p.address}#${p.feed.statsVersion}`).join(' ');
  const series = useMemo(
    () => panes.map((p) => ({ address: p.address, color: colors.get(p.address) ?? colorAt(0), points: p.feed.rates.toArray() })),
    // Built per stats event, not per frame.
    [chartKey, colors],
  );

  const start = () => {
    setApplied(draft);
    setRunning(true);
    setRun((n) => n + 1);
  };

  return (
    <div className="page mon-page">
      <div className="toolbar">
        <p className="page-intro">
          <strong>{profile.name}</strong> · the commands its nodes run, as they run them
        </p>
      </div>
      <CostBanner />
      {nodes.error !== undefined ? (
        <div className="panel error-state">
          <ErrorAlert error={nodes.error} title={`Cannot list the nodes of ${profile.name}:`} />
          {/* A refusal by role or ACL stays a refusal however often it is asked again. */}
          {nodes.error.code !== 'FORBIDDEN' && nodes.error.code !== 'NOPERM' && (
            <div className="form-actions">
              <button type="button" className="btn" onClick={nodes.refresh} data-testid="monitor-retry">
                Try again
              </button>
            </div>
          )}
        </div>
      ) : tree.length === 0 ? (
        <p className="empty">{nodes.loading ? 'Finding the nodes…' : 'No nodes found.'}</p>
      ) : (
        <>
          <div className="panel mon-controls">
            <NodePicker nodes={tree} picked={chosen} onPick={setPicked} colors={colors} onRefresh={nodes.refresh} />
            <div className="mon-run" role="group" aria-label="Watch">
              {running && live ? (
                <button type="button" className="btn" onClick={() => setRunning(false)} data-testid="monitor-stop">
                  Stop
                </button>
              ) : (
                <button type="button" className="btn btn-primary" onClick={start} disabled={watched.length === 0} data-testid="monitor-start">
                  {panes.some((p) => p.feed.rows.length > 0) ? 'Start again' : 'Start'}
                </button>
              )}
              <PauseButtons list={session} testPrefix="monitor" items="lines" pauseDisabled={panes.length === 0} clearDisabled={panes.length === 0} />
              <input
                type="search"
                className="mon-search"
                placeholder="Search the buffered lines"
                aria-label="Search the buffered lines"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                data-testid="monitor-search"
              />
            </div>
          </div>
          <FilterPanel draft={draft} onDraft={setDraft} applied={applied} onApply={() => setApplied(draft)} running={running} errors={errors} />
          {ended !== undefined && (
            <div className="panel mon-ended" role="status" data-testid="monitor-ended">
              <span>{ended}</span>
              <button type="button" className="btn btn-primary" onClick={start}>
                Start again
              </button>
            </div>
          )}
          {session.paused && (
            <p className="mon-paused" role="status">
              Paused: the lists hold still while lines and counters keep arriving (the last 10,000 lines per node are kept).
            </p>
          )}
          {/* Mounted before the first start, so the chart's chunk is loaded before lines stream in. */}
          <Suspense fallback={<div className="panel chart">Loading chart…</div>}>
            <RateChart series={series} version={chartKey} />
          </Suspense>
          <div className="mon-panes" data-testid="monitor-panes">
            {panes.map((p) => (
              <PaneView
                key={p.address}
                session={session}
                pane={p}
                color={colors.get(p.address) ?? colorAt(0)}
                query={query}
                hasMaster={hasMaster}
                hasReplicas={hasReplicas}
                errorShownElsewhere={p.feed.error?.code === 'VALIDATION' && controlOf(p.feed.error.field) !== undefined}
                profileId={profile.id}
              />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
