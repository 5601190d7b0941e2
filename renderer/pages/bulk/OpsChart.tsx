import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, CHART_PROPS, GRID_STROKE, TOOLTIP_STYLE } from '../../components/charts/chartParts';
import { formatCount, formatSeconds } from '../../lib/format';
import { maxOf, niceAxis } from '../../lib/ticks';
import type { OpsPoint } from './progress';

/** Ops/s over the whole load (the series thins itself out); animation off, it redraws ten times a second. */
export function OpsChart({ points, startedAt }: { points: readonly OpsPoint[]; startedAt: number | undefined }) {
  const t0 = startedAt ?? points[0]?.t ?? 0;
  const data = points.map((p) => ({ s: (p.t - t0) / 1000, ops: p.ops }));
  // Ticks on whole steps of the load's own span: a short load reads "0 100 ms 200 ms", never "0.1s 0.1s 0.2s".
  const x = niceAxis(data.at(-1)?.s ?? 0, 'seconds', 5);
  const y = niceAxis(maxOf(data, ['ops']), 'count');
  return (
    <figure className="panel chart bulk-chart" aria-label="Ops per second during the load" data-testid="bulk-ops-chart">
      <figcaption>Ops/s</figcaption>
      {data.length < 2 ? (
        <p className="empty">Waiting for the load to start writing…</p>
      ) : (
        <ResponsiveContainer width="100%" height={200}>
          <LineChart {...CHART_PROPS} data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={GRID_STROKE} vertical={false} />
            <XAxis dataKey="s" type="number" domain={[0, x.ticks.at(-1) ?? 1]} ticks={x.ticks} interval={0} tickFormatter={x.format} tick={AXIS_TICK} />
            <YAxis domain={[0, y.ticks.at(-1) ?? 1]} ticks={y.ticks} interval={0} tickFormatter={y.format} tick={AXIS_TICK} width={52} />
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(s) => `+${formatSeconds(Number(s))}`}
              formatter={(v) => [formatCount(Number(v)), 'Ops/s']}
              {...TOOLTIP_STYLE}
            />
            <Line dataKey="ops" name="Ops/s" stroke="var(--series-1)" dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
