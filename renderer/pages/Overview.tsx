import { lazy, Suspense, useCallback, useState } from 'react';
import type { InfoSnapshot } from '../../app/schemas/server';
import { useCall } from '../bridge/useCall';
import { ErrorAlert } from '../components/ErrorAlert';
import { hrefOf } from '../lib/route';
import { appendPoint, type SeriesPoint } from '../lib/series';
import { useProfiles } from '../profiles/ProfilesContext';
import { addressOf } from './connections/address';
import { KeyspaceTable } from './overview/KeyspaceTable';
import { StatGrid } from './overview/StatGrid';

// Recharts is most of the bundle's weight; load it with the first page that draws a chart.
const LiveChart = lazy(() => import('./overview/LiveChart').then((m) => ({ default: m.LiveChart })));

const POLL_MS = 1000;
const WINDOW_MS = 120_000;
const MAX_POINTS = 240;

/** INFO of the selected profile, polled every second, with a short client-side history. */
export function OverviewPage() {
  const { profiles, selected, loading, error: listError } = useProfiles();
  const [series, setSeries] = useState<{ profileId: string; points: SeriesPoint[] }>({ profileId: '', points: [] });
  const profileId = selected?.id;

  const onData = useCallback(
    (info: InfoSnapshot) => {
      if (profileId === undefined) return;
      const point = { t: info.at, ops: info.stats.opsPerSec, memory: info.memory.used };
      setSeries((s) => ({
        profileId,
        points: appendPoint(s.profileId === profileId ? s.points : [], point, WINDOW_MS, MAX_POINTS),
      }));
    },
    [profileId],
  );
  const info = useCall('server.info', profileId === undefined ? undefined : { profileId }, {
    intervalMs: POLL_MS,
    onData,
  });

  if (selected === undefined) {
    if (listError) return <ErrorAlert error={listError} title="Could not list connections:" />;
    return (
      <section className="panel empty-state" data-testid="overview-empty">
        {loading && profiles.length === 0 ? (
          <p>Loading…</p>
        ) : (
          <>
            <h2>No connections yet</h2>
            <p>
              Add a Redis connection to see its live overview. <a href={hrefOf('connections')}>Go to Connections</a>
            </p>
          </>
        )}
      </section>
    );
  }

  const points = series.profileId === selected.id ? series.points : [];

  return (
    <div className="page">
      <div className="toolbar">
        <p className="page-intro">
          <strong>{selected.name}</strong> <span className="mono muted">{addressOf(selected)}</span>
        </p>
        <span className="muted">INFO every {POLL_MS / 1000} s</span>
      </div>
      {info.error ? (
        <div className="panel error-state" data-testid="overview-error">
          <ErrorAlert error={info.error} title={`Cannot read INFO from ${selected.name}:`} />
          <p className="muted">Retrying every second.</p>
        </div>
      ) : info.data === undefined ? (
        <p className="empty">Loading…</p>
      ) : (
        <>
          <StatGrid info={info.data} />
          <div className="overview-grid">
            <Suspense fallback={<div className="panel chart">Loading chart…</div>}>
              <LiveChart points={points} />
            </Suspense>
            <div className="panel">
              <KeyspaceTable keyspace={info.data.keyspace} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
