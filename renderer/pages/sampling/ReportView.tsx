import { lazy, memo, Suspense, useState } from 'react';
import type { SamplingReport } from '../../../app/schemas/sampling';
import { SectionHead } from '../../components/SectionHead';
import { Segmented } from '../../components/Segmented';
import { Warnings } from '../../components/Warnings';
import { formatCount } from '../../lib/format';
import { ChartLoading } from '../../components/charts/ChartFrame';
import { ExportButtons } from './ExportButtons';
import { NamespaceTree } from './NamespaceTree';
import { emptyMessage, type NamespaceMetric } from './report';
import { MastersTable } from './MastersTable';
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

interface Props {
  report: SamplingReport;
  /** The biggest keys link to the Keys page on this profile. */
  profileId: string;
  profileName: string;
  /** Running: a partial report; cancelled: what it examined; done: the whole of it. */
  state: 'running' | 'done' | 'cancelled';
  /** Sets the run controls to a census: what finds the big keys a sample misses. */
  onCensus?: () => void;
}

/**
 * A report: summary, charts, tables and export. Drawn from partial reports while the
 * run goes; memoised, since progress re-renders the page ten times a second and the
 * report changes about once.
 */
export const ReportView = memo(function ReportView({ report: r, profileId, profileName, state, onCensus }: Props) {
  const [metric, setMetric] = useState<NamespaceMetric>('memory');
  const partial = state !== 'done';
  const empty = emptyMessage(r, state);

  const head = (
    <SectionHead title="Report" note={`${r.method} of ${formatCount(r.keysExamined)} keys from db${r.db}${partial ? ' · partial' : ''}`}>
      <ExportButtons report={r} profileName={profileName} partial={partial} />
    </SectionHead>
  );

  if (empty !== undefined) {
    return (
      <section className="job-section" aria-label="Report" data-testid="sampling-report">
        {head}
        <div className="panel empty-state smp-empty" data-testid="sampling-empty">
          <h2>{empty.title}</h2>
          <p>{empty.detail}</p>
        </div>
        <Warnings warnings={r.warnings} testId="sampling-warnings" />
      </section>
    );
  }

  return (
    <section className="job-section" aria-label="Report" data-testid="sampling-report">
      {head}
      <Warnings warnings={r.warnings} testId="sampling-warnings" />
      <SummaryStats report={r} partial={partial} />
      <Suspense fallback={<ChartLoading />}>
        <KeyspaceCharts report={r} />
      </Suspense>
      {/* A sample's types table carries estimates and their intervals: it takes the whole width. */}
      <div className={`smp-grid smp-grid-tables${r.method === 'sample' ? ' smp-grid-stacked' : ''}`}>
        <div className="panel job-table-panel">
          <TypesTable report={r} />
        </div>
        <div className="panel job-table-panel">
          <EncodingsTable report={r} />
        </div>
      </div>
      <MastersTable report={r} />
      <Suspense fallback={<ChartLoading />}>
        <HistogramCharts report={r} />
      </Suspense>
      <section className="smp-section" aria-label="Prefixes">
        <SectionHead title="Prefixes" note="where the keys and the memory are, by “:” prefix">
          <Segmented label="Rank prefixes" options={METRICS} value={metric} onChange={setMetric} testId="sampling-ns-metric" />
        </SectionHead>
        <div className="smp-grid smp-grid-ns">
          <Suspense fallback={<ChartLoading />}>
            <NamespaceChart report={r} metric={metric} />
          </Suspense>
          <div className="panel job-table-panel">
            <NamespaceTree report={r} metric={metric} />
          </div>
        </div>
      </section>
      <section className="smp-section" aria-label="Biggest keys">
        <SectionHead title="Biggest keys" note={r.method === 'sample' ? 'of the keys this sample drew' : 'of the keys this run examined'} />
        {r.method === 'sample' && (
          <p className="smp-caveat" data-testid="sampling-bigkeys-caveat">
            A sample finds big keys only by chance: each draw is one key of {formatCount(r.dbsize)}, so a huge key among many small ones is most likely never
            drawn, and the sampled memory misses it. A census measures every key; the Keys page's index lists every key by size.{' '}
            {onCensus !== undefined && (
              <button type="button" className="btn btn-small" onClick={onCensus} data-testid="sampling-switch-census">
                Switch to census
              </button>
            )}
          </p>
        )}
        <div className="panel job-table-panel">
          <TopKeysTable keys={r.topByMemory} by="memory" testId="sampling-top-memory" profileId={profileId} db={r.db} />
        </div>
        <div className="panel job-table-panel">
          <TopKeysTable keys={r.topByLength} by="elements" testId="sampling-top-length" profileId={profileId} db={r.db} />
        </div>
        <div className="panel job-table-panel">
          <TopKeysTable keys={r.topStringsByLength} by="bytes" testId="sampling-top-strlen" profileId={profileId} db={r.db} />
        </div>
      </section>
    </section>
  );
});
