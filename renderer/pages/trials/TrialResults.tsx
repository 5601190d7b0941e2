import { lazy, memo, Suspense } from 'react';
import type { TrialLatency } from '../../../app/schemas/trials';
import { Stat } from '../../components/Stat';
import { formatLatency } from '../../lib/format';
import { TRIALS } from './form';
import { proxyText, UNITS, type Results } from './results';
import { SweepTable } from './SweepTable';
import { VariantTable } from './VariantTable';

const charts = () => import('./Charts');
const OpsChart = lazy(() => charts().then((m) => ({ default: m.OpsChart })));
const SweepChart = lazy(() => charts().then((m) => ({ default: m.SweepChart })));
const LatencyChart = lazy(() => charts().then((m) => ({ default: m.LatencyChart })));

function Loading() {
  return <div className="panel chart smp-chart-loading">Loading charts…</div>;
}

const STATE_NOTE = { running: 'so far', done: '', cancelled: 'cancelled: the variants that finished' } as const;

/**
 * One run's results: the proxy's measured round trips, warnings, the table and the
 * chart of its variants, and the transaction-size sweep. Memoised: progress
 * re-renders the page ten times a second, the results change once per variant.
 */
export const TrialResults = memo(function TrialResults({ results: r, title }: { results: Results; title: string }) {
  const note = [TRIALS[r.trial].label, r.params, proxyText(r.latency?.requestedMs), STATE_NOTE[r.state]].filter(Boolean).join(' · ');
  return (
    <section className="trial-results" aria-label="Results" data-testid="trials-report" data-state={r.state}>
      <header className="trial-section-head">
        <h2>{title}</h2>
        <span className="muted">{note}</span>
      </header>
      {r.latency !== undefined && <LatencyStats latency={r.latency} />}
      {r.warnings.length > 0 && (
        <section className="panel trial-warnings" aria-label="Warnings" data-testid="trials-warnings">
          <h3>Warnings</h3>
          <ul>
            {r.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </section>
      )}
      {r.trial === 'load' ? (
        // The load table has percentile columns: it takes the width, the charts share the row below.
        <>
          <div className="panel trial-table-panel">
            <VariantTable variants={r.variants} pending={r.pending} />
          </div>
          <div className="trial-grid is-even">
            <Suspense fallback={<Loading />}>
              <OpsChart variants={r.variants} unit={UNITS[r.trial]} />
              {r.variants.some((v) => v.latency !== undefined) && <LatencyChart variants={r.variants} />}
            </Suspense>
          </div>
        </>
      ) : (
        <div className="trial-grid">
          <div className="panel trial-table-panel">
            <VariantTable variants={r.variants} pending={r.pending} />
          </div>
          <Suspense fallback={<Loading />}>
            <OpsChart variants={r.variants} unit={UNITS[r.trial]} />
          </Suspense>
        </div>
      )}
      {r.sweep.length > 0 && (
        <div className="trial-grid">
          <Suspense fallback={<Loading />}>
            <SweepChart sweep={r.sweep} />
          </Suspense>
          <div className="panel trial-table-panel">
            <SweepTable sweep={r.sweep} />
          </div>
        </div>
      )}
    </section>
  );
});

/** What the latency proxy really added: the median PING straight to the server and through it. */
function LatencyStats({ latency: l }: { latency: TrialLatency }) {
  return (
    <dl className="stat-grid trial-latency" data-testid="trials-latency">
      <Stat label="Proxy delay" value={`${l.requestedMs} ms`} sub="asked for, each way" />
      <Stat label="Direct RTT" value={formatLatency(l.directRttMs)} sub="median PING to the server" testId="trials-rtt-direct" />
      <Stat label="Proxied RTT" value={formatLatency(l.proxiedRttMs)} sub="median PING through the proxy" testId="trials-rtt-proxied" />
      <Stat label="Added per round trip" value={formatLatency(l.addedRttMs)} sub={`expected about ${formatLatency(2 * l.requestedMs)}`} />
    </dl>
  );
}
