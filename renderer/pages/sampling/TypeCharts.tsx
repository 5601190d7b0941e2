import type { SamplingReport } from '../../../app/schemas/sampling';
import type { HBar } from '../../components/charts/chartParts';
import { formatBytes } from '../../lib/format';
import { HBarChart } from '../../components/charts/chartParts';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { formatMemoryInterval, memoryErr, shareAxis, shareBar, TYPE_COLORS } from './report';

type Props = { report: SamplingReport };

/** Share of keys per type; a sample draws its 95% interval as whiskers and says "±" beside each bar. */
export function TypeShareChart({ report: r }: Props) {
  const sample = r.method === 'sample';
  const rows = r.types.map((t) => shareBar(t.type, t.type, t, TYPE_COLORS[t.type], sample));
  return (
    <ChartFrame title="Keys by type" note={sample ? '% of keys · whiskers: 95% confidence interval' : '% of the keys examined'} testId="sampling-chart-types">
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
    const refused = 'notEstimable' in t.memoryInterval;
    const err = sample ? memoryErr(value, t.memoryInterval) : undefined;
    const range = sample ? (refused ? 'not estimable' : `95%: ${formatMemoryInterval(t.memoryInterval)}`) : '';
    return {
      key: t.type,
      label: t.type,
      value,
      figure: sample ? (refused ? `≈ ${formatBytes(value)}?` : `≈ ${formatBytes(value)}`) : formatBytes(value),
      ...(err === undefined ? {} : { err }),
      color: TYPE_COLORS[t.type],
      detail: sample ? `≈ ${formatBytes(value)} in the DB, ${range} (${measured})` : measured,
    };
  });
  return (
    <ChartFrame
      title="Memory by type"
      note={sample ? 'MEMORY USAGE scaled to DBSIZE · whiskers: 95% interval · “?”: not estimable (see Types)' : 'MEMORY USAGE of every key'}
      testId="sampling-chart-memory"
    >
      <HBarChart rows={rows} axis="bytes" figureWidth={76} />
    </ChartFrame>
  );
}
