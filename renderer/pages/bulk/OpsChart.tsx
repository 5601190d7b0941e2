import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatDuration } from '../../lib/format';
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
  // A short load needs tenths on the time axis, or its ticks all read "0s", "1s", "1s".
  const span = data.at(-1)?.s ?? 0;
  const tick = (s: number) => (span < 20 ? `${s.toFixed(1)}s` : formatDuration(s));
  return (
    <figure className="panel chart bulk-chart" aria-label="Ops per second during the load">
      <figcaption>Ops/s</figcaption>
      {data.length < 2 ? (
        <p className="empty" data-testid="bulk-chart-empty">
          {emptyText(outcome, data.length)}
        </p>
      ) : (
        <ResponsiveContainer width="100%" height={200}>
          <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#e3e6eb" vertical={false} />
            <XAxis
              dataKey="s"
              type="number"
              domain={[0, 'dataMax']}
              tickFormatter={tick}
              tick={{ fontSize: 11 }}
              minTickGap={40}
            />
            <YAxis
              allowDecimals={false}
              domain={[0, 'auto']}
              tickFormatter={formatCount}
              tick={{ fontSize: 11 }}
              width={64}
            />
            <Tooltip
              labelFormatter={(s) => `+${tick(Number(s))}`}
              formatter={(v) => [formatCount(Number(v)), 'Ops/s']}
            />
            <Line dataKey="ops" name="Ops/s" stroke="#2563eb" dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
