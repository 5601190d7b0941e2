import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { KeyType, SamplingReport } from '../../../app/schemas/sampling';
import { SectionHead } from '../../components/SectionHead';
import { Segmented } from '../../components/Segmented';
import { formatCount } from '../../lib/format';
import { maxOf, niceAxis } from '../../lib/ticks';
import { AXIS_TICK, CHART_HEIGHT, CHART_PROPS, GRID_STROKE, TOOLTIP_STYLE, VISIBLE_IF_ANY } from '../../components/charts/chartParts';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { histogramBars, histogramTypes, LENGTH_OF, lengthUnit, TYPE_COLORS, type HistogramUnit } from './report';

type Histogram = SamplingReport['sizeHistograms'][number];

/** Axis labels that fit under a half-width chart. */
const LABELS = 8;

function HistogramChart({
  title,
  note,
  histogram,
  unit,
  color,
  testId,
}: {
  title: string;
  note: string;
  histogram: Histogram | undefined;
  unit: HistogramUnit;
  color: string;
  testId: string;
}) {
  const bars = histogramBars(histogram, unit);
  const y = niceAxis(maxOf(bars, ['count']), 'count');
  return (
    <ChartFrame title={title} note={note} testId={testId}>
      {bars.length === 0 ? (
        <p className="empty chart-empty">Nothing measured for this type.</p>
      ) : (
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart {...CHART_PROPS} data={bars} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barCategoryGap={2}>
            <CartesianGrid stroke={GRID_STROKE} vertical={false} />
            {/* Every k-th label, evenly: a power-of-two axis read with gaps at random is misleading. */}
            <XAxis dataKey="label" tick={AXIS_TICK} interval={Math.ceil(bars.length / LABELS) - 1} />
            <YAxis domain={[0, y.ticks.at(-1) ?? 1]} ticks={y.ticks} interval={0} tickFormatter={y.format} tick={AXIS_TICK} width={40} />
            <Tooltip
              isAnimationActive={false}
              formatter={(v) => [`${formatCount(Number(v))} keys`, 'keys']}
              labelFormatter={(_l, items) => {
                const b = items[0]?.payload as (typeof bars)[number] | undefined;
                return b === undefined ? '' : b.range;
              }}
              {...TOOLTIP_STYLE}
            />
            <Bar dataKey="count" fill={color} isAnimationActive={false} minPointSize={VISIBLE_IF_ANY} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </ChartFrame>
  );
}

/** Power-of-two histograms of MEMORY USAGE and of length, for the type picked above them. */
export function HistogramCharts({ report }: { report: SamplingReport }) {
  const types = histogramTypes(report);
  const [picked, setPicked] = useState<KeyType>();
  const type = picked !== undefined && types.includes(picked) ? picked : types[0];
  if (type === undefined) return null;
  const size = report.sizeHistograms.find((h) => h.type === type);
  const length = report.lengthHistograms.find((h) => h.type === type);
  return (
    <section className="smp-section" aria-label="Sizes">
      <SectionHead title="Sizes" note="power-of-two buckets: “≤ 1 KiB” counts keys above 512 B up to 1 KiB">
        <Segmented label="Type" options={types.map((t) => ({ value: t, label: t }))} value={type} onChange={setPicked} testId="sampling-histogram-type" />
      </SectionHead>
      <div className="smp-grid">
        <HistogramChart
          title={`Memory per key · ${type}`}
          note="MEMORY USAGE"
          histogram={size}
          unit="bytes"
          color={TYPE_COLORS[type]}
          testId="sampling-chart-size"
        />
        <HistogramChart
          title={`Length · ${type}`}
          note={LENGTH_OF[type]}
          histogram={length}
          unit={lengthUnit(type)}
          color={TYPE_COLORS[type]}
          testId="sampling-chart-length"
        />
      </div>
    </section>
  );
}
