import { lazy, Suspense, useMemo, useState } from 'react';
import type { ErrorCode } from '../../../app/errors';
import type { ProfileView } from '../../../app/schemas/connections';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RestrictionNotice, mergeRestrictions } from '../../components/RestrictionNotice';
import { NoProfile } from '../../components/NoProfile';
import { Segmented } from '../../components/Segmented';
import { useProfiles } from '../../profiles/ProfilesContext';
import { AlertsBar, type Stale } from './AlertsBar';
import { AsOf, useLinkLost, type LinkLost } from '../../components/LiveState';
import { ClusterPanel } from './ClusterPanel';
import { FailoverList } from './FailoverList';
import { FailoverBanner, lastMasterSwitch, SentinelList } from './SentinelPanel';
import type { ChartNode } from './Charts';
import { clock } from '../../lib/display';
import { isReplicaRole, profileAddress, sameAddress } from '../../lib/nodes';
import { NodeCards } from './NodeCards';
import { NodeDetails } from './NodeDetails';
import { pageModel, type PageModel } from './pageModel';
import { PersistencePanel } from './PersistencePanel';
import { SlowlogPanel } from './SlowlogPanel';
import { TopCommands } from './TopCommands';
import { TopologyGraph } from './TopologyGraph';
import { POLL_MS, useMetricsWatch, type MetricsWatch } from './useMetricsWatch';
import { useOpsActions } from './useOpsActions';
import { gapCaption, gapSpans } from './gapSpans';
import { nodeStatus } from './nodeStatus';
import './metrics.css';

// Recharts is most of the bundle's weight; load it with the first page that draws a chart.
const Charts = lazy(() => import('./Charts').then((m) => ({ default: m.Charts })));

const WINDOWS: readonly { label: string; value: number }[] = [
  { label: '1 min', value: 60_000 },
  { label: '5 min', value: 5 * 60_000 },
  { label: '15 min', value: 15 * 60_000 },
];

/** Codes that mean the node itself could not be reached, as opposed to a refusal or our own link. */
const REACH_CODES = new Set<ErrorCode>(['UNREACHABLE', 'TIMEOUT', 'TLS', 'AUTH_FAILED']);

/**
 * The one role="alert" on the page: the profile's own node is down, or the watch
 * stream itself failed. Always names host:port, since that is what ops search for.
 */
function NodeError({ model, watch, address }: { model: PageModel; watch: MetricsWatch; address: string }) {
  // The profile's node as the server names it, else the master: a profile that names the
  // master by another host (localhost vs 127.0.0.1) still means that node.
  const own = model.defaultNode === undefined ? undefined : model.samples.get(model.defaultNode);
  // A slow node is not "cannot reach": its card, the alerts and the charts say it is slow.
  if (own !== undefined && nodeStatus(own) === 'unreachable') {
    return (
      <div className="alert alert-error ov-page-error" role="alert" data-testid="overview-error">
        <strong>
          Cannot reach Redis at {own.address}
          {sameAddress(own.address, address) ? '' : ` (profile ${address})`}:
        </strong>
        {own.error !== undefined && <span>{own.error}</span>}
        <span className="muted">Polling again every {POLL_MS / 1000} s.</span>
      </div>
    );
  }
  // A lost link is said by the banner and the not-live alerts bar; it is not the node's error.
  if (watch.error === undefined || watch.error.code === 'DISCONNECTED') return null;
  const title = REACH_CODES.has(watch.error.code) ? `Cannot reach Redis at ${address}:` : `Live metrics for ${address} stopped:`;
  return (
    <div className="ov-page-error" data-testid="overview-error">
      <ErrorAlert error={watch.error} title={title} />
    </div>
  );
}

export function MetricsPage() {
  const { profiles, selected, loading, error: listError } = useProfiles();
  const profileId = selected?.id;
  const watch = useMetricsWatch(profileId);
  const lost = useLinkLost();
  const refused = mergeRestrictions(watch.state.samples);
  const ops = useOpsActions(profileId, undefined, refused.map((r) => r.command).join(' '));
  const [pick, setPick] = useState<{ profileId: string; address: string } | undefined>(undefined);
  const [windowMs, setWindowMs] = useState<number>(15 * 60_000);

  const ownAddress = selected === undefined ? '' : profileAddress(selected);
  const picked = pick !== undefined && pick.profileId === profileId ? pick.address : undefined;
  const model = useMemo(() => pageModel(watch.state, ownAddress, picked), [watch.state, ownAddress, picked]);
  // Same array while the nodes, colours and roles are: the charts skip redraws by identity.
  // The memo keys on the string that encodes everything the array holds.
  const chartNodes: ChartNode[] = model.cards.map((c) => ({ address: c.address, color: c.color, replica: isReplicaRole(c.role) }));
  const nodesKey = JSON.stringify(chartNodes);
  const stableNodes = useMemo(() => JSON.parse(nodesKey) as ChartNode[], [nodesKey]);

  if (selected === undefined) {
    return <NoProfile loading={loading && profiles.length === 0} error={listError} purpose="see its live overview" testId="overview-empty" />;
  }

  const select = (address: string) => setPick({ profileId: selected.id, address });
  const now = watch.state.at ?? 0;
  const card = model.cards.find((c) => c.address === model.selected);
  const selectedSample = model.selected === undefined ? undefined : model.samples.get(model.selected);
  const hasData = watch.state.samples.length > 0;
  const { mode, cluster, sentinels } = watch.state.profile;
  const switched = mode === 'sentinel' ? lastMasterSwitch(watch.state.failovers) : undefined;
  const stale = staleOf(watch, lost);

  return (
    <div className={`page ov-page${stale === undefined ? '' : ' is-stale'}`} data-stale={stale === undefined ? undefined : 'true'}>
      <Toolbar profile={selected} address={ownAddress} watch={watch} nodes={model.order.length} stale={stale} />
      <NodeError model={model} watch={watch} address={ownAddress} />
      <RestrictionNotice restrictions={refused} />
      {!hasData ? (
        watch.error === undefined && <p className="empty">Connecting to {ownAddress}…</p>
      ) : (
        <>
          <AlertsBar
            groups={model.alerts}
            now={now}
            nodeCount={model.order.length}
            unreachableCount={model.unreachableCount}
            slowCount={model.slowCount}
            onSelect={select}
            stale={stale}
          />
          {switched !== undefined && <FailoverBanner failover={switched} />}
          <NodeCards cards={model.cards} selected={model.selected} onSelect={select} />
          <div className="ov-row">
            <TopologyGraph nodes={model.topology} samples={watch.state.samples} colors={model.colors} selected={model.selected} onSelect={select} />
            <NodeDetails card={card} order={model.order} onSelect={select} />
          </div>
          {(mode === 'cluster' || mode === 'sentinel' || watch.state.failovers.length > 0) && (
            <div className="ov-row">
              {mode === 'cluster' && <ClusterPanel cluster={cluster} nodes={model.topology} colors={model.colors} onSelect={select} />}
              {mode === 'sentinel' && sentinels !== undefined && <SentinelList sentinels={sentinels} />}
              <FailoverList failovers={watch.state.failovers} />
            </div>
          )}
          <section className="ov-charts-section" aria-label="Time series">
            <header className="ov-section-head">
              <h2>History</h2>
              <span className="muted">
                one poll every {POLL_MS / 1000} s · <span data-testid="overview-gaps">{gapCaption(gapSpans(watch.state.series, now - windowMs, now))}</span> ·
                last {clock(now)}
                {stale !== undefined && <> · not live</>}
              </span>
              <Segmented label="Time window" options={WINDOWS} value={windowMs} onChange={setWindowMs} />
            </header>
            <Suspense fallback={<div className="panel chart">Loading charts…</div>}>
              <Charts series={watch.state.series} nodes={stableNodes} now={now} windowMs={windowMs} pollMs={POLL_MS} selected={model.selected} />
            </Suspense>
          </section>
          <PersistencePanel
            nodes={model.cards.map((c) => ({ address: c.address, color: c.color, sample: c.sample }))}
            selected={model.selected}
            ops={ops}
            now={now}
          />
          {model.selected !== undefined && (
            <div className="ov-row ov-row-detail">
              <TopCommands commands={selectedSample?.up ? selectedSample.topCommands : undefined} address={model.selected} />
              <SlowlogPanel profile={selected} address={model.selected} up={selectedSample?.up === true} />
            </div>
          )}
        </>
      )}
    </div>
  );
}

/**
 * Not live, once the page has shown figures: the link to the Cacheboard server is lost, or the
 * watch stream ended (and is being retried). Its figures are then as of the last tick.
 */
function staleOf(watch: MetricsWatch, lost: LinkLost | undefined): Stale | undefined {
  const at = watch.state.at;
  if (watch.live || at === undefined) return undefined;
  if (lost !== undefined) return { why: `lost the connection to the Cacheboard server at ${clock(lost.lostAt)}`, asOf: at };
  return { why: watch.error === undefined ? 'reconnecting to the live metrics' : `the live metrics stopped (${watch.error.message})`, asOf: at };
}

function Toolbar({
  profile,
  address,
  watch,
  nodes,
  stale,
}: {
  profile: ProfileView;
  address: string;
  watch: MetricsWatch;
  nodes: number;
  stale: Stale | undefined;
}) {
  return (
    <div className="toolbar">
      <p className="page-intro">
        <strong>{profile.name}</strong> <span className="mono muted">{address}</span>
        {nodes > 0 && (
          <span className="muted">
            {' '}
            · {nodes} node{nodes === 1 ? '' : 's'}
          </span>
        )}
      </p>
      <span className={`ov-live ${watch.live ? 'is-live' : 'is-idle'}`} data-testid="overview-live">
        <span className="ov-dot" aria-hidden="true" />
        {watch.live ? (
          `Live · every ${POLL_MS / 1000} s`
        ) : stale !== undefined ? (
          <>
            Not live · <AsOf at={stale.asOf} />
          </>
        ) : watch.error !== undefined ? (
          'Retrying…'
        ) : (
          'Connecting…'
        )}
      </span>
    </div>
  );
}
