import { useState } from 'react';
import type { SamplingReport } from '../../../app/schemas/sampling';
import { Segmented } from '../../components/Segmented';
import { formatBytes, formatCount, truncate } from '../../lib/format';
import { HBarChart } from '../../components/charts/chartParts';
import { ChartFrame } from '../../components/charts/ChartFrame';
import type { HBar } from '../../components/charts/chartParts';
import { formatShare, namespaceDepths, topNamespaces, type NamespaceMetric } from './report';

const BARS = 12;
const LABEL_CHARS = 24;

/** The biggest prefixes at one level of the tree, by memory or by keys. */
export function NamespaceChart({ report, metric }: { report: SamplingReport; metric: NamespaceMetric }) {
  const depths = namespaceDepths(report.namespaces);
  const sample = report.method === 'sample';
  const [picked, setPicked] = useState<number>();
  const depth = picked !== undefined && depths.includes(picked) ? picked : depths[0];
  const rows = topNamespaces(
    report.namespaces.filter((n) => n.depth === depth),
    metric,
    BARS,
  ).map((n): HBar => ({
    key: n.prefix,
    label: truncate(n.prefix, LABEL_CHARS),
    value: metric === 'memory' ? n.memory : n.keys,
    figure: metric === 'memory' ? formatBytes(n.memory) : `${sample ? '≈ ' : ''}${formatCount(n.keys)}`,
    color: 'var(--series-1)',
    detail: sample
      ? `${n.prefix} · ≈ ${formatCount(n.keys)} keys (95%: ${formatCount(n.keysLow)} – ${formatCount(n.keysHigh)}; ${formatCount(n.count)} draws, ${formatShare(n.percent)}) · ${formatBytes(n.memory)} drawn`
      : `${n.prefix} · ${formatCount(n.keys)} keys (${formatShare(n.percent)}) · ${formatBytes(n.memory)}`,
  }));

  return (
    <ChartFrame
      title={`Top prefixes by ${metric === 'memory' ? 'memory' : 'keys'}`}
      note={depth === undefined ? undefined : `level ${depths.indexOf(depth) + 1} of the “:” tree`}
      testId="sampling-chart-namespaces"
      actions={
        depths.length > 1 && depth !== undefined ? (
          <Segmented label="Level" options={depths.slice(0, 4).map((d, i) => ({ value: d, label: `level ${i + 1}` }))} value={depth} onChange={setPicked} />
        ) : undefined
      }
    >
      {rows.length === 0 ? (
        <p className="empty chart-empty">No key has a “:” prefix.</p>
      ) : (
        <HBarChart rows={rows} axis={metric === 'memory' ? 'bytes' : 'count'} labelWidth={176} labelMono figureWidth={70} />
      )}
    </ChartFrame>
  );
}
