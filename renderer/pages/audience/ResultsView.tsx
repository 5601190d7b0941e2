import { lazy, memo, Suspense } from 'react';
import { SectionHead } from '../../components/SectionHead';
import { Stat } from '../../components/Stat';
import { Warnings } from '../../components/Warnings';
import { formatCount, formatLatency } from '../../lib/format';
import { ChartLoading } from '../../components/charts/ChartFrame';
import { rangeText } from './history';
import { MismatchBanner } from './MismatchBanner';
import { bestOf } from './results';
import type { ShownResults } from './shownResults';
import { StrategyTable } from './StrategyTable';

const charts = () => import('./Charts');
const DaysChart = lazy(() => charts().then((m) => ({ default: m.DaysChart })));
const LatencyChart = lazy(() => charts().then((m) => ({ default: m.LatencyChart })));

const STATE_NOTE = { running: 'so far', done: '', cancelled: 'cancelled: the strategies that finished' } as const;

/**
 * One trial's results: the audience, the cross-check, both charts and the table.
 * Memoised: progress re-renders the page ten times a second, results change once per strategy.
 */
export const ResultsView = memo(function ResultsView({ results: r, title }: { results: ShownResults; title: string }) {
  const best = bestOf(r.strategies);
  const peak = r.days.reduce((m, d) => Math.max(m, d.count), 0);
  const note = [r.from !== undefined && r.to !== undefined ? rangeText(r.from, r.to) : undefined, STATE_NOTE[r.state]].filter(Boolean).join(' · ');
  return (
    <section className="job-section aud-results" aria-label="Results" data-testid="aud-report" data-state={r.state}>
      <SectionHead title={title} note={note} />
      <p className="aud-normalized mono" title="The expression as the server read it">
        {r.normalized}
      </p>
      {r.countsMatch === false && <MismatchBanner mismatches={r.mismatches} />}
      <Warnings warnings={r.warnings} testId="aud-warnings" />
      <dl className="stat-grid">
        <Stat
          label="Audience size"
          value={r.audienceSize === undefined ? '—' : formatCount(r.audienceSize)}
          sub="users matching the expression"
          testId="aud-size"
        />
        <Stat label="Busiest day" value={r.days.length === 0 ? '—' : formatCount(peak)} sub={`of ${formatCount(r.days.length)} days`} testId="aud-peak" />
        <Stat label="Best p50" value={best === undefined ? '—' : formatLatency(best.p50Ms)} sub={best?.name} testId="aud-best" />
        <Stat
          label="Cross-check"
          value={r.countsMatch === undefined ? '…' : r.countsMatch ? 'counts match' : 'COUNTS DIFFER'}
          sub={r.countsMatch === undefined ? 'when the trial ends' : 'every strategy that ran, every day'}
          testId="aud-counts-match"
        />
      </dl>
      <div className="aud-charts">
        <Suspense fallback={<ChartLoading />}>
          <DaysChart days={r.days} />
        </Suspense>
        <Suspense fallback={<ChartLoading />}>
          <LatencyChart strategies={r.strategies} />
        </Suspense>
      </div>
      <div className="panel job-table-panel">
        <StrategyTable strategies={r.strategies} pending={r.pending} />
      </div>
    </section>
  );
});
