import type { SamplingReport } from '../../../app/schemas/sampling';
import { HBarChart } from '../../components/charts/chartParts';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { shareAxis, shareBar, ttlRows } from './report';

/** Keys by time to live: how much of the cache expires on its own, and how soon. */
export function TtlChart({ report: r }: { report: SamplingReport }) {
  const sample = r.method === 'sample';
  const rows = ttlRows(r);
  return (
    <ChartFrame title="TTL" note="% of keys by time left to live" testId="sampling-chart-ttl">
      <HBarChart
        rows={rows.map((t) => shareBar(t.bucket, t.label, t, 'var(--series-6)', sample))}
        axis={shareAxis(rows)}
        labelWidth={84}
        figureWidth={sample ? 92 : 52}
      />
    </ChartFrame>
  );
}
