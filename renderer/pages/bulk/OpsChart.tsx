import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, CHART_PROPS, GRID_STROKE, TOOLTIP_STYLE } from '../../components/charts/chartParts';
import { formatCount, formatSeconds } from '../../lib/format';
import { maxOf, niceAxis } from '../../lib/ticks';
import type { Outcome } from './loadView';
import type { OpsPoint } from './progress';

/** What the chart says while it has fewer than two points: a load that ended will not write any more. */
function emptyText(outcome: Outcome | undefined, points: number): string {
  if (outcome === undefined) return 'Waiting for the load to start writing…';
  const why = outcome === 'failed' ? 'The load failed' : outcome === 'cancelled' ? 'The load was cancelled' : 'The load ended';
  return points === 0 ? `${why} before it wrote anything: no rate to chart.` : `${why} too soon for a rate over time.`;
}

/** Ops/s over the whole load (the series thins itself out); animation off, it redraws ten times a second. */
export function OpsChart({
  points,
  startedAt,
  outcome,
}: {
  points: readonly OpsPoint[];
  startedAt: number | undefined;
  /** Set once the load has ended: the chart no longer waits for it. */
  outcome: Outcome | undefined;
}) {
  const t0 = startedAt ?? points[0]?.t ?? 0;
  const data = points.map((p) => ({ s: (p.t - t0) / 1000, ops: p.ops }));
  // Ticks on whole steps of the load's own span: a short load reads "0 100 ms 200 ms", never "0.1s 0.1s 0.2s".
  const x = niceAxis(data.at(-1)?.s ?? 0, 'seconds', 5);
  const y = niceAxis(maxOf(data, ['ops']), 'count');
  return (
    <figure className="panel chart bulk-chart" aria-label="Ops per second during the load" data-testid="bulk-ops-chart">
      <figcaption>Ops/s</figcaption>
      {data.length < 2 ? (
        <p className="empty" data-testid="bulk-chart-empty">
          {emptyText(outcome, data.length)}
        </p>
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
