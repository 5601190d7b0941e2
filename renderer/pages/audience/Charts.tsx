/**
 * The audience charts, one lazy chunk: Recharts is most of the bundle. The frame and
 * the bar chart are the Sampling page's, so every chart in the app reads alike.
 */
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DayCount, StrategyResult } from '../../../app/schemas/audience';
import { formatCount } from '../../lib/format';
import { maxOf, niceAxis } from '../../lib/ticks';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { AXIS_TICK, CHART_HEIGHT, CHART_PROPS, GRID_STROKE, HBarChart, TOOLTIP_STYLE } from '../../components/charts/chartParts';
import { dayPoints, latencyBars } from './results';

/** How many of the audience were active on each day of the range. */
export function DaysChart({ days }: { days: readonly DayCount[] }) {
  const rows = dayPoints(days);
  const y = niceAxis(maxOf(rows, ['count']), 'count');
  return (
    <ChartFrame title="Active audience per day" note="users of the audience active that day" testId="aud-chart-days">
      {rows.length === 0 ? (
        <p className="empty chart-empty">No strategy has answered yet.</p>
      ) : (
        <ResponsiveContainer width="100%" height={CHART_HEIGHT + 20}>
          <LineChart {...CHART_PROPS} data={rows} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
            <CartesianGrid stroke={GRID_STROKE} vertical={false} />
            <XAxis dataKey="label" tick={AXIS_TICK} minTickGap={12} />
            <YAxis domain={[0, y.ticks.at(-1) ?? 1]} ticks={y.ticks} interval={0} tickFormatter={y.format} tick={AXIS_TICK} width={44} />
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(_l, items) => String((items[0]?.payload as { day?: string } | undefined)?.day ?? '')}
              formatter={(v) => [formatCount(Number(v)), 'active']}
              {...TOOLTIP_STYLE}
            />
            <Line dataKey="count" stroke="var(--series-1)" strokeWidth={2} dot={rows.length <= 45 ? { r: 2 } : false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      )}
    </ChartFrame>
  );
}

/** Each strategy's p50 as a bar, whiskers from its min to its p95. */
export function LatencyChart({ strategies }: { strategies: readonly StrategyResult[] }) {
  const bars = latencyBars(strategies);
  return (
    <ChartFrame title="Latency by strategy" note="ms per query: p50, whiskers min to p95; lower is better" testId="aud-chart-latency">
      {bars.length === 0 ? (
        <p className="empty chart-empty">No strategy has finished yet.</p>
      ) : (
        <HBarChart rows={bars} axis="ms" labelWidth={112} figureWidth={168} />
      )}
    </ChartFrame>
  );
}
