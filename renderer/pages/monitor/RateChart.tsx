import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { clock } from '../../lib/display';
import { formatCount } from '../../lib/format';
import { CHART_PROPS } from '../../components/charts/chartParts';
import { niceAxis } from '../../lib/ticks';
import type { RatePoint } from './paneFeed';
import { rateRows, timeTicks, valueTicks } from './rateRows';

export interface RateSeries {
  address: string;
  color: string;
  points: readonly RatePoint[];
}

interface Props {
  series: readonly RateSeries[];
  /** Changes with every stats event of any node; nothing else redraws the chart. */
  version: string;
}

function RateChartNow({ series }: Props) {
  const { rows, xTicks, yTicks } = useMemo(() => {
    const rows = rateRows(series.map((s, i) => ({ key: String(i), points: s.points })));
    let max = 0;
    for (const r of rows) for (const [k, v] of Object.entries(r)) if (k !== 't' && typeof v === 'number') max = Math.max(max, v);
    return { rows, xTicks: timeTicks(rows[0]?.t ?? 0, rows.at(-1)?.t ?? 0), yTicks: valueTicks(max) };
  }, [series]);
  const label = (key: string) => {
    const s = series[Number(key.slice(1))];
    return s === undefined ? key : `${s.address} ${key.startsWith('l') ? 'node lines/s' : 'delivered/s'}`;
  };
  return (
    <figure className="panel chart mon-chart" data-testid="monitor-rate-chart" aria-label="Lines per second">
      <figcaption className="mon-chart-head">
        <span>Lines/s</span>
        <span className="muted"> solid: what the node runs · dashed: what this page was sent</span>
      </figcaption>
      {/* Drawn even before there are points: mounting Recharts is its costliest step, better done before lines stream in. */}
      <div className="mon-chart-body">
        {rows.length < 2 && <p className="empty mon-chart-note">Rates show here while a node is watched: a point a second.</p>}
        <ResponsiveContainer width="100%" height={150}>
          <LineChart {...CHART_PROPS} data={rows} margin={{ top: 6, right: 28, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#e3e6eb" vertical={false} />
            {/* Ticks given and interval 0: Recharts then measures no label text in the DOM. */}
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={['dataMin', 'dataMax']}
              ticks={xTicks}
              interval={0}
              tickFormatter={clock}
              tick={{ fontSize: 10 }}
            />
            <YAxis
              domain={[0, yTicks.at(-1) ?? 1]}
              ticks={yTicks}
              interval={0}
              tickFormatter={niceAxis(yTicks.at(-1) ?? 0, 'count').format}
              tick={{ fontSize: 10 }}
              width={52}
            />
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(t) => clock(Number(t))}
              formatter={(v, _name, item) => [v === null || v === undefined ? '—' : formatCount(Number(v)), label(String(item.dataKey))]}
              contentStyle={{ fontSize: 11, padding: '4px 8px' }}
              itemStyle={{ padding: 0 }}
            />
            {series.flatMap((s, i) => [
              <Line key={`l${i}`} dataKey={`l${i}`} stroke={s.color} strokeWidth={1.75} dot={false} connectNulls isAnimationActive={false} />,
              <Line
                key={`d${i}`}
                dataKey={`d${i}`}
                stroke={s.color}
                strokeWidth={1.25}
                strokeDasharray="4 3"
                dot={false}
                connectNulls
                isAnimationActive={false}
              />,
            ])}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ul className="mon-legend" aria-label="Legend">
        {series.map((s) => (
          <li key={s.address}>
            <span className="mon-swatch" style={{ background: s.color }} aria-hidden="true" />
            <span className="mono">{s.address}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** Node lines/s and delivered lines/s per watched node; redrawn once per stats event, animation off. */
export const RateChart = memo(RateChartNow, (a, b) => a.version === b.version);
