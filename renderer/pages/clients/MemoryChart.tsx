import { memo } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { AXIS_TICK, CHART_PROPS, GRID_STROKE, TOOLTIP_STYLE } from '../../components/charts/chartParts';
import { formatBytes } from '../../lib/format';
import { niceAxis } from '../../lib/ticks';
import { MEMORY_KINDS, type MemoryRow } from './memoryRows';

const ROW_PX = 30;

function MemoryChartNow({ rows }: { rows: readonly MemoryRow[]; version: string }) {
  const x = niceAxis(Math.max(0, ...rows.map((r) => r.total)), 'bytes');
  return (
    <ChartFrame title="Client memory by kind" note="per node, all its clients: what tot-mem is made of" testId="clients-memory-chart" className="cl-chart">
      <ResponsiveContainer width="100%" height={rows.length * ROW_PX + 30}>
        <BarChart {...CHART_PROPS} data={rows} layout="vertical" margin={{ top: 2, right: 32, bottom: 0, left: 0 }} barCategoryGap={6}>
          <CartesianGrid stroke={GRID_STROKE} horizontal={false} />
          <XAxis type="number" domain={[0, x.ticks.at(-1) ?? 1]} ticks={x.ticks} interval={0} tickFormatter={x.format} tick={AXIS_TICK} />
          <YAxis type="category" dataKey="node" width={128} interval={0} tick={{ fontSize: 11, fontFamily: 'var(--mono)', fill: 'var(--chart-axis)' }} />
          <Tooltip
            isAnimationActive={false}
            cursor={{ fill: 'var(--chart-cursor)' }}
            formatter={(v, name) => [formatBytes(Number(v)), String(name)]}
            {...TOOLTIP_STYLE}
          />
          {MEMORY_KINDS.map((k) => (
            <Bar key={k.key} dataKey={k.key} name={k.label} stackId="mem" fill={k.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <ul className="cl-chart-legend" aria-label="Memory kinds">
        {MEMORY_KINDS.map((k) => (
          <li key={k.key}>
            <span className="cl-swatch" style={{ background: k.color }} aria-hidden="true" />
            {k.label}
          </li>
        ))}
      </ul>
    </ChartFrame>
  );
}

/** Redrawn when the figures change, not on every render of the page. */
export const MemoryChart = memo(MemoryChartNow, (a, b) => a.version === b.version);
