/**
 * The trial charts, one lazy chunk: Recharts is most of the bundle. The frame and
 * the bar chart are the Sampling page's, so every chart in the app reads alike.
 */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type LegendPayload } from 'recharts';
import type { SweepPoint, VariantResult } from '../../../app/schemas/trials';
import { formatCount, formatLatency } from '../../lib/format';
import { formatLogTick } from '../../lib/ticks';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { AXIS_TICK, CHART_HEIGHT, CHART_PROPS, GRID_STROKE, HBarChart, TOOLTIP_STYLE } from '../../components/charts/chartParts';
import { latencySeries, logTicks, opsBars, sweepSeries } from './chartRows';

/** Ops/s per variant, the rate and the ratio to the first at the right of each bar. */
export function OpsChart({ variants, unit }: { variants: readonly VariantResult[]; unit: string }) {
  const bars = opsBars(variants);
  return (
    <ChartFrame title="Throughput by variant" note={`${unit}/s, higher is better`} testId="trials-chart-ops">
      {bars.length === 0 ? (
        <p className="empty chart-empty">No variant has finished yet.</p>
      ) : (
        <HBarChart rows={bars} axis="count" labelWidth={128} figureWidth={124} />
      )}
    </ChartFrame>
  );
}

/** Legend entries in the order the series are drawn (Recharts sorts them by name otherwise). */
const inOrder = (keys: readonly string[]) => (item: LegendPayload) => keys.indexOf(String(item.dataKey));

const PLAIN = 'var(--series-gray)';
const PIPELINED = 'var(--series-1)';

/** The transaction-size sweep: ops/s by MULTI size, each command awaited (plain) or the whole transaction written at once. */
export function SweepChart({ sweep }: { sweep: readonly SweepPoint[] }) {
  const rows = sweepSeries(sweep);
  // Plain and pipelined are decades apart at size 100: a linear axis flattens plain to a line on zero.
  const ticks = logTicks(rows.flatMap((r) => [r.plain, r.pipelined]));
  return (
    <ChartFrame title="MULTI/EXEC by transaction size" note="SETs/s (log scale), plain against pipelined" testId="trials-chart-sweep">
      <ResponsiveContainer width="100%" height={CHART_HEIGHT + 20}>
        <LineChart {...CHART_PROPS} data={rows} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={GRID_STROKE} vertical={false} />
          <XAxis
            dataKey="size"
            tick={AXIS_TICK}
            interval={0}
            label={{ value: 'commands per MULTI', position: 'insideBottomRight', offset: -2, fontSize: 10, fill: 'var(--chart-axis)' }}
            height={34}
          />
          <YAxis
            scale="log"
            domain={[ticks[0] ?? 1, ticks.at(-1) ?? 10]}
            ticks={ticks}
            allowDataOverflow
            tickFormatter={formatLogTick}
            tick={AXIS_TICK}
            width={44}
          />
          <Tooltip
            isAnimationActive={false}
            labelFormatter={(size) => `MULTI of ${String(size)}`}
            formatter={(v, name) => [`${formatCount(Number(v))}/s`, name]}
            {...TOOLTIP_STYLE}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} verticalAlign="top" align="right" height={20} itemSorter={inOrder(['plain', 'pipelined'])} />
          <Line dataKey="plain" name="plain (each command awaited)" stroke={PLAIN} strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
          <Line dataKey="pipelined" name="pipelined (one write)" stroke={PIPELINED} strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** The load trial's request latency per command: p50 to max, on a log scale (a max can be 500× the median). */
export function LatencyChart({ variants }: { variants: readonly VariantResult[] }) {
  const { rows, series } = latencySeries(variants);
  const ticks = logTicks(rows.flatMap((r) => series.map((s) => Number(r[s.key] ?? 0))));
  return (
    <ChartFrame title="Request latency" note="ms (log scale), lower is better" testId="trials-chart-latency">
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <BarChart {...CHART_PROPS} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barCategoryGap="20%">
          <CartesianGrid stroke={GRID_STROKE} vertical={false} />
          <XAxis dataKey="percentile" tick={AXIS_TICK} />
          <YAxis
            scale="log"
            domain={[ticks[0] ?? 0.01, ticks.at(-1) ?? 1]}
            ticks={ticks}
            allowDataOverflow
            tickFormatter={formatLogTick}
            tick={AXIS_TICK}
            width={40}
          />
          <Tooltip isAnimationActive={false} formatter={(v, name) => [formatLatency(Number(v)), name]} {...TOOLTIP_STYLE} />
          <Legend wrapperStyle={{ fontSize: 11 }} verticalAlign="top" align="right" height={20} itemSorter={inOrder(series.map((x) => x.key))} />
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
