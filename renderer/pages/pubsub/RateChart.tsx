import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, CHART_PROPS, GRID_STROKE, TOOLTIP_STYLE } from '../../components/charts/chartParts';
import { clock } from '../../lib/display';
import { formatCount } from '../../lib/format';
import { niceAxis, timeTicks } from '../../lib/ticks';
import type { RatePoint } from './feed';

interface Props {
  points: readonly RatePoint[];
  /** Changes with every stats event; nothing else redraws the chart. */
  version: number;
}

const LABELS: Record<string, string> = { received: 'received/s', delivered: 'delivered/s' };

function RateChartNow({ points }: Props) {
  const { xTicks, y } = useMemo(() => {
    const max = Math.max(0, ...points.map((p) => p.received));
    return { xTicks: timeTicks(points[0]?.t ?? 0, points.at(-1)?.t ?? 0), y: niceAxis(max, 'count') };
  }, [points]);
  return (
    <figure className="panel chart ps-chart" data-testid="pubsub-rate-chart" aria-label="Messages per second">
      <figcaption>
        Messages/s <span className="muted">solid: received by these subscriptions · dashed: sent to this page</span>
      </figcaption>
      <div className="ps-chart-body">
        {points.length < 2 && <p className="empty ps-chart-note">Rates show here once subscribed: a point a second.</p>}
        <ResponsiveContainer width="100%" height={140}>
          <LineChart {...CHART_PROPS} data={[...points]} margin={{ top: 6, right: 28, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={GRID_STROKE} vertical={false} />
            {/* Ticks given and interval 0: Recharts then measures no label text in the DOM. */}
            <XAxis dataKey="t" type="number" scale="time" domain={['dataMin', 'dataMax']} ticks={xTicks} interval={0} tickFormatter={clock} tick={AXIS_TICK} />
            <YAxis domain={[0, y.ticks.at(-1) ?? 1]} ticks={y.ticks} interval={0} tickFormatter={y.format} tick={AXIS_TICK} width={52} />
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(t) => clock(Number(t))}
              formatter={(v, name) => [formatCount(Number(v)), LABELS[String(name)] ?? String(name)]}
              {...TOOLTIP_STYLE}
            />
            <Line dataKey="received" stroke="var(--series-1)" strokeWidth={1.75} dot={false} isAnimationActive={false} />
            <Line dataKey="delivered" stroke="var(--series-1)" strokeWidth={1.25} strokeDasharray="4 3" dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** Received and delivered messages per second; redrawn once per stats event, animation off. */
export const RateChart = memo(RateChartNow, (a, b) => a.version === b.version);
