import type { CSSProperties } from 'react';
import { niceAxis, type Axis, type TickUnit } from '../../lib/ticks';
import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** What every bar chart of the Sampling and trials pages shares: no animation (partial reports redraw each second), small type. */
export const AXIS_TICK = { fontSize: 10, fill: 'var(--chart-axis)' } as const;
/**
 * What every Recharts chart is given. Its accessibility layer makes the chart a tab stop
 * with no name that opens the tooltip on focus and walks points with the arrows: charts
 * here are figures named by their caption, beside the table of the same figures where a
 * page has one, and stay out of the tab order.
 */
export const CHART_PROPS = { accessibilityLayer: false } as const;
/** Colours are styles.css variables (light-dark), so every chart follows the theme. */
export const GRID_STROKE = 'var(--chart-grid)';
export const TOOLTIP_STYLE: { contentStyle: CSSProperties; itemStyle: CSSProperties } = {
  contentStyle: { fontSize: 11, padding: '4px 8px' },
  itemStyle: { padding: 0 },
};
export const CHART_HEIGHT = 190;

/** A bar too small to see still shows a sliver when it holds anything (one 1 GiB key among millions). */
export const VISIBLE_IF_ANY = (value: number | undefined | null) => (value !== null && value !== undefined && value > 0 ? 2 : 0);

/** One row of an HBarChart. */
export interface HBar {
  key: string;
  /** The category, at the left. */
  label: string;
  value: number;
  /** The figure at the right of the row: "61.2 % ±1.0". */
  figure: string;
  /** Lower and upper error below and above `value` (a 95% interval), when there is one. */
  err?: [number, number];
  color: string;
  /** The tooltip's line for this row. */
  detail: string;
}

const ROW_PX = 26;

/**
 * Horizontal bars with the category at the left and its figure in a column at the
 * right, so labels never collide however narrow the panel; whiskers when rows carry an interval.
 */
export function HBarChart({
  rows,
  axis,
  labelWidth = 64,
  labelMono = false,
  figureWidth = 96,
}: {
  rows: readonly HBar[];
  /** The value axis: what it counts (its nice ticks are drawn from 0 past the longest bar and whisker), or the ticks themselves. */
  axis: TickUnit | Axis;
  labelWidth?: number;
  /** Labels are key prefixes: monospaced, like keys everywhere else. */
  labelMono?: boolean;
  figureWidth?: number;
}) {
  const whiskers = rows.some((r) => r.err !== undefined && (r.err[0] > 0 || r.err[1] > 0));
  const x = typeof axis === 'string' ? niceAxis(Math.max(0, ...rows.map((r) => r.value + (r.err?.[1] ?? 0))), axis) : axis;
  return (
    <ResponsiveContainer width="100%" height={rows.length * ROW_PX + 28}>
      <BarChart {...CHART_PROPS} data={rows} layout="vertical" margin={{ top: 2, right: 4, bottom: 0, left: 0 }} barCategoryGap={5}>
        <CartesianGrid stroke={GRID_STROKE} horizontal={false} />
        <XAxis type="number" domain={[0, x.ticks.at(-1) ?? 1]} ticks={x.ticks} interval={0} tickFormatter={x.format} tick={AXIS_TICK} />
        <YAxis
          yAxisId="label"
          type="category"
          dataKey="label"
          width={labelWidth}
          interval={0}
          tick={labelMono ? { fontSize: 11, fontFamily: 'var(--mono)' } : { fontSize: 11 }}
        />
        <YAxis
          yAxisId="figure"
          orientation="right"
          type="category"
          dataKey="figure"
          width={figureWidth}
          interval={0}
          axisLine={false}
          tickLine={false}
          tick={{ fontSize: 11, fill: 'var(--text)' }}
        />
        <Tooltip
          isAnimationActive={false}
          cursor={{ fill: 'var(--chart-cursor)' }}
          formatter={(_v, _n, item) => [(item.payload as HBar).detail, '']}
          separator=""
          {...TOOLTIP_STYLE}
        />
        <Bar yAxisId="label" dataKey="value" isAnimationActive={false} minPointSize={VISIBLE_IF_ANY}>
          {rows.map((r) => (
            <Cell key={r.key} fill={r.color} />
          ))}
          {whiskers && <ErrorBar dataKey="err" width={6} stroke="var(--text)" strokeWidth={1.25} isAnimationActive={false} />}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
