/**
 * The Sampling page's charts, one lazy chunk: Recharts is most of the bundle, and it
 * is shared with the Overview and Bulk load charts once any of them has loaded it.
 */
import type { SamplingReport } from '../../../app/schemas/sampling';
import { TtlChart } from './TtlChart';
import { TypeMemoryChart, TypeShareChart } from './TypeCharts';

export { HistogramCharts } from './HistogramCharts';
export { NamespaceChart } from './NamespaceChart';

/** Keys and memory by type, and TTLs, side by side. */
export function KeyspaceCharts({ report }: { report: SamplingReport }) {
  return (
    <div className="smp-grid smp-grid-3">
      <TypeShareChart report={report} />
      <TypeMemoryChart report={report} />
      <TtlChart report={report} />
    </div>
  );
}
