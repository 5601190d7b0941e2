import { lazy, memo, Suspense, useState } from 'react';
import type { SamplingReport } from '../../../app/schemas/sampling';
import { Segmented } from '../../components/Segmented';
import { formatCount } from '../../lib/format';
import { ExportButtons } from './ExportButtons';
import { NamespaceTree } from './NamespaceTree';
import { emptyMessage, type NamespaceMetric } from './report';
import { EncodingsTable, TypesTable } from './ShareTables';
import { SummaryStats } from './SummaryStats';
import { TopKeysTable } from './TopKeysTable';

const charts = () => import('./Charts');
const KeyspaceCharts = lazy(() => charts().then((m) => ({ default: m.KeyspaceCharts })));
const HistogramCharts = lazy(() => charts().then((m) => ({ default: m.HistogramCharts })));
const NamespaceChart = lazy(() => charts().then((m) => ({ default: m.NamespaceChart })));

const METRICS = [
  { value: 'memory', label: 'by memory' },
  { value: 'count', label: 'by keys' },
] as const satisfies readonly { value: NamespaceMetric; label: string }[];

function Loading() {
  return <div className="panel chart smp-chart-loading">Loading charts…</div>;
}

interface Props {
  report: SamplingReport;
  profileName: string;
  /** Running: a partial report; cancelled: what it examined; done: the whole of it. */
  state: 'running' | 'done' | 'cancelled';
}

/**
 * A report: summary, charts, tables and export. Drawn from partial reports while the
 * run goes; memoised, since progress re-renders the page ten times a second and the
 * report changes about once.
 */
export const ReportView = memo(function ReportView({ report: r, profileName, state }: Props) {
  const [metric, setMetric] = useState<NamespaceMetric>('memory');
  const partial = state !== 'done';
  const empty = emptyMessage(r, state);

  const head = (
    <header className="smp-section-head smp-report-head">
      <h2>Report</h2>
      <span className="muted">
        {r.method === 'sample' ? `sample of ${formatCount(r.keysExamined)} keys` : `census of ${formatCount(r.keysExamined)} keys`}{' '}
        from db{r.db}
        {partial ? ' · partial' : ''}
      </span>
      <ExportButtons report={r} profileName={profileName} partial={partial} />
    </header>
  );

  if (empty !== undefined) {
    return (
      <section className="smp-report" aria-label="Report" data-testid="sampling-report">
        {head}
        <div className="panel empty-state smp-empty" data-testid="sampling-empty">
          <h2>{empty.title}</h2>
          <p>{empty.detail}</p>
        </div>
        <Warnings warnings={r.warnings} />
      </section>
    );
  }

  return (
    <section className="smp-report" aria-label="Report" data-testid="sampling-report">
      {head}
      <Warnings warnings={r.warnings} />
      <SummaryStats report={r} partial={partial} />
      <Suspense fallback={<Loading />}>
        <KeyspaceCharts report={r} />
      </Suspense>
      <div className="smp-grid smp-grid-tables">
        <div className="panel smp-table-panel">
          <TypesTable report={r} />
        </div>
        <div className="panel smp-table-panel">
          <EncodingsTable report={r} />
        </div>
      </div>
      <Suspense fallback={<Loading />}>
        <HistogramCharts report={r} />
      </Suspense>
      <section className="smp-section" aria-label="Prefixes">
        <header className="smp-section-head">
          <h2>Prefixes</h2>
          <span className="muted">where the keys and the memory are, by “:” prefix</span>
          <Segmented label="Rank prefixes" options={METRICS} value={metric} onChange={setMetric} testId="sampling-ns-metric" />
        </header>
        <div className="smp-grid smp-grid-ns">
          <Suspense fallback={<Loading />}>
            <NamespaceChart report={r} metric={metric} />
          </Suspense>
          <div className="panel smp-table-panel">
            <NamespaceTree report={r} metric={metric} />
          </div>
        </div>
      </section>
      <section className="smp-section" aria-label="Biggest keys">
        <header className="smp-section-head">
          <h2>Biggest keys</h2>
          <span className="muted">of the keys this run examined</span>
        </header>
        <div className="panel smp-table-panel">
          <TopKeysTable keys={r.topByMemory} by="memory" testId="sampling-top-memory" />
        </div>
        <div className="panel smp-table-panel">
          <TopKeysTable keys={r.topByLength} by="length" testId="sampling-top-length" />
        </div>
      </section>
    </section>
  );
});

function Warnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <section className="panel smp-warnings" aria-label="Warnings" data-testid="sampling-warnings">
      <h3>Warnings</h3>
      <ul>
        {warnings.map((w, i) => (
          <li key={i}>{w}</li>
        ))}
      </ul>
    </section>
  );
}
