import type { SamplingReport } from '../../../app/schemas/sampling';
import type { HBar } from '../../components/charts/chartParts';
import { formatBytes } from '../../lib/format';
import { HBarChart } from '../../components/charts/chartParts';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { shareAxis, shareBar, TYPE_COLORS } from './report';

type Props = { report: SamplingReport };

/** Share of keys per type; a sample draws its 95% interval as whiskers and says "±" beside each bar. */
export function TypeShareChart({ report: r }: Props) {
  const sample = r.method === 'sample';
  const rows = r.types.map((t) => shareBar(t.type, t.type, t, TYPE_COLORS[t.type], sample));
  return (
    <ChartFrame
      title="Keys by type"
      note={sample ? '% of keys · whiskers: 95% confidence interval' : '% of the keys examined'}
      testId="sampling-chart-types"
    >
      <HBarChart rows={rows} axis={shareAxis(r.types)} figureWidth={sample ? 92 : 52} />
    </ChartFrame>
  );
}

/** Memory per type: measured for a census, scaled to DBSIZE for a sample. */
export function TypeMemoryChart({ report: r }: Props) {
  const sample = r.method === 'sample';
  const rows = r.types.map((t): HBar => {
    const value = sample ? t.estimatedMemory : t.memory;
    const measured = `${formatBytes(t.memory)} measured over ${t.count} keys`;
    return {
      key: t.type,
      label: t.type,
      value,
      figure: `${sample ? '≈ ' : ''}${formatBytes(value)}`,
      color: TYPE_COLORS[t.type],
      detail: sample ? `≈ ${formatBytes(value)} in the DB (${measured})` : measured,
    };
  });
  return (
    <ChartFrame
      title="Memory by type"
      note={sample ? 'MEMORY USAGE scaled to DBSIZE (estimate)' : 'MEMORY USAGE of every key'}
      testId="sampling-chart-memory"
    >
      <HBarChart rows={rows} axis="bytes" figureWidth={76} />
    </ChartFrame>
  );
}
