import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatBytes, formatCount } from '../../lib/format';
import type { SeriesPoint } from '../../lib/series';

const clock = (t: number) => new Date(t).toLocaleTimeString('en-GB', { hour12: false });

/** Ops/s and used memory over the kept window; animation off, since it redraws every second. */
export function LiveChart({ points }: { points: readonly SeriesPoint[] }) {
  return (
    <figure className="panel chart" aria-label="Ops per second and used memory, last two minutes">
      <figcaption>Last 2 minutes</figcaption>
      {points.length < 2 ? (
        <p className="empty">Collecting samples…</p>
      ) : (
        <ResponsiveContainer width="100%" height={220}>
          <LineChart data={points as SeriesPoint[]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#e3e6eb" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={['dataMin', 'dataMax']}
              tickFormatter={clock}
              tick={{ fontSize: 11 }}
              minTickGap={40}
            />
            <YAxis yAxisId="ops" allowDecimals={false} domain={[0, (max: number) => Math.max(5, Math.ceil(max))]} tickFormatter={formatCount} tick={{ fontSize: 11 }} width={56} />
            <YAxis yAxisId="mem" orientation="right" tickFormatter={formatBytes} tick={{ fontSize: 11 }} width={72} />
            <Tooltip
              labelFormatter={(t) => clock(Number(t))}
              formatter={(v, name) => [name === 'Used memory' ? formatBytes(Number(v)) : formatCount(Number(v)), name]}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Line yAxisId="ops" dataKey="ops" name="Ops/s" stroke="#2563eb" dot={false} isAnimationActive={false} />
            <Line
              yAxisId="mem"
              dataKey="memory"
              name="Used memory"
              stroke="#d9480f"
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
