import { lazy, memo, Suspense } from 'react';
import type { TrialLatency } from '../../../app/schemas/trials';
import { SectionHead } from '../../components/SectionHead';
import { Stat } from '../../components/Stat';
import { Warnings } from '../../components/Warnings';
import { formatLatency } from '../../lib/format';
import { ChartLoading } from '../../components/charts/ChartFrame';
import { TRIALS } from './form';
import { proxyText, UNITS, type Results } from './results';
import { SweepTable } from './SweepTable';
import { VariantTable } from './VariantTable';

const charts = () => import('./Charts');
const OpsChart = lazy(() => charts().then((m) => ({ default: m.OpsChart })));
const SweepChart = lazy(() => charts().then((m) => ({ default: m.SweepChart })));
const LatencyChart = lazy(() => charts().then((m) => ({ default: m.LatencyChart })));

const STATE_NOTE = { running: 'so far', done: '', cancelled: 'cancelled: the variants that finished' } as const;

/**
 * One run's results: the proxy's measured round trips, warnings, the table and the
 * chart of its variants, and the transaction-size sweep. Memoised: progress
 * re-renders the page ten times a second, the results change once per variant.
 */
export const TrialResults = memo(function TrialResults({ results: r, title }: { results: Results; title: string }) {
  const note = [TRIALS[r.trial].label, r.params, proxyText(r.latency?.requestedMs), STATE_NOTE[r.state]].filter(Boolean).join(' · ');
  return (
    <section className="job-section" aria-label="Results" data-testid="trials-report" data-state={r.state}>
      <SectionHead title={title} note={note} />
      {r.latency !== undefined && <LatencyStats latency={r.latency} />}
      <Warnings warnings={r.warnings} testId="trials-warnings" />
      {r.trial === 'load' ? (
        // The load table has percentile columns: it takes the width, the charts share the row below.
        <>
          <div className="panel job-table-panel">
            <VariantTable variants={r.variants} pending={r.pending} />
          </div>
          <div className="trial-grid is-even">
            <Suspense fallback={<ChartLoading />}>
              <OpsChart variants={r.variants} unit={UNITS[r.trial]} />
              {r.variants.some((v) => v.latency !== undefined) && <LatencyChart variants={r.variants} />}
            </Suspense>
          </div>
        </>
      ) : (
        <div className="trial-grid">
          <div className="panel job-table-panel">
            <VariantTable variants={r.variants} pending={r.pending} />
          </div>
          <Suspense fallback={<ChartLoading />}>
            <OpsChart variants={r.variants} unit={UNITS[r.trial]} />
          </Suspense>
        </div>
      )}
      {r.sweep.length > 0 && (
        <div className="trial-grid">
          <Suspense fallback={<ChartLoading />}>
            <SweepChart sweep={r.sweep} />
          </Suspense>
          <div className="panel job-table-panel">
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
