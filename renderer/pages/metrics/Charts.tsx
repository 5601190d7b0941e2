import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { clock, formatKbps } from '../../lib/display';
import { formatBytes, formatCount } from '../../lib/format';
import { AXIS_TICK, CHART_PROPS, GRID_STROKE, TOOLTIP_STYLE } from '../../components/charts/chartParts';
import { maxOf, niceAxis, timeTicks, type TickUnit } from '../../lib/ticks';
import { chartRows, redrawEveryMs, type ChartColumn, type ChartRow } from './chartRows';
import { GAP_ROW, spanLabel } from './GapLabel';
import { gapSpans, labelledMarks, restartMarks, type GapSpan, type RestartMark } from './gapSpans';
import type { MetricKey, SeriesStore } from './timeSeries';

export interface ChartNode {
  address: string;
  color: string;
  replica: boolean;
}

interface Props {
  series: SeriesStore;
  nodes: readonly ChartNode[];
  /** Newest tick time; the window ends there. */
  now: number;
  windowMs: number;
  pollMs: number;
  selected: string | undefined;
}

/** Rows per chart: a chart is ~450 px wide, so more only costs Recharts time (it walks every point of every line). */
const MAX_ROWS = 300;

interface Line {
  key: string;
  address: string;
  color: string;
  dashed: boolean;
  label: string;
}

interface Spec {
  testId: string;
  title: string;
  unit: string;
  /** What the value axis counts: its ticks and labels come from lib/ticks. */
  axis: TickUnit;
  value(v: number): string;
  lines: Line[];
  columns: ChartColumn[];
  note?: string;
}

const HEIGHT = 170;

function buildSpecs(series: SeriesStore, nodes: readonly ChartNode[]): Spec[] {
  const one = (metric: MetricKey, prefix: string, only?: (n: ChartNode) => boolean, dashed = false, suffix = '') => {
    const picked = nodes.map((n, i) => ({ n, key: `${prefix}${i}` })).filter(({ n }) => only?.(n) ?? true);
    return {
      lines: picked.map(({ n, key }) => ({ key, address: n.address, color: n.color, dashed, label: `${n.address}${suffix}` })),
      columns: picked.map(({ n, key }) => ({ key, metric, points: series.get(n.address) ?? [] })),
    };
  };
  const ops = one('ops', 'n');
  const mem = one('mem', 'n');
  const clients = one('clients', 'n');
  const netIn = one('netIn', 'i', undefined, false, ' in');
  const netOut = one('netOut', 'o', undefined, true, ' out');
  const lag = one('lag', 'n', (n) => n.replica);
  return [
    { testId: 'chart-ops', title: 'Ops/s', unit: '', axis: 'count', value: formatCount, ...ops },
    { testId: 'chart-memory', title: 'Used memory', unit: '', axis: 'bytes', value: formatBytes, ...mem },
    { testId: 'chart-clients', title: 'Connected clients', unit: '', axis: 'count', value: formatCount, ...clients },
    {
      testId: 'chart-network',
      title: 'Network in / out',
      unit: 'KB/s',
      axis: 'count',
      value: formatKbps,
      lines: [...netIn.lines, ...netOut.lines],
      columns: [...netIn.columns, ...netOut.columns],
      note: 'solid in · dashed out',
    },
    {
      testId: 'chart-lag',
      title: 'Replication lag',
      unit: 'bytes behind master',
      axis: 'bytes',
      value: formatBytes,
      ...lag,
    },
  ];
}

/** Shading per gap cause: an outage reads as an alarm, a late answer as a warning, a stretch nobody recorded as missing paper. */
const GAP_FILL: Record<GapSpan['cause'], string> = { down: '#fecaca', slow: '#fde68a', unrecorded: '#e5e7eb' };
const GAP_LABEL: Record<GapSpan['cause'], string> = { down: 'unreachable', slow: 'slow', unrecorded: 'not recorded' };
/** "restarted" at 10 px is ~50 px wide; a chart is at least ~450 px wide (two a row at 1280 px): the share of the window one label needs. */
const RESTART_LABEL_SHARE = 60 / 450;
function MetricChart({
  spec,
  rows,
  selected,
  gaps,
  restarts,
  windowMs,
}: {
  spec: Spec;
  rows: ChartRow[];
  selected: string | undefined;
  gaps: readonly GapSpan[];
  restarts: readonly RestartMark[];
  windowMs: number;
}) {
  // A chart shows the down stretches and restarts of its own nodes only (the lag chart has no master line).
  const mine = new Set(spec.lines.map((l) => l.address));
  const shown = gaps.filter((g) => g.cause === 'unrecorded' || g.nodes.some((n) => mine.has(n)));
  const restarted = restarts.filter((m) => m.nodes.some((n) => mine.has(n)));
  const worded = labelledMarks(restarted, windowMs * RESTART_LABEL_SHARE);
  const byKey = new Map(spec.lines.map((l) => [l.key, l]));
  const legend = spec.lines.filter((l) => !l.dashed);
  // SVG paints in order: the selected node's lines go last so that replicas with the
  // same figures (a replica replays its master's writes) never hide them.
  const y = niceAxis(
    maxOf(
      rows,
      spec.lines.map((l) => l.key),
    ),
    spec.axis,
  );
  const xTicks = timeTicks(rows[0]?.t ?? 0, rows.at(-1)?.t ?? 0);
  const drawOrder = [...spec.lines.filter((l) => l.address !== selected), ...spec.lines.filter((l) => l.address === selected)];
  return (
    <figure
      className="panel chart ov-chart"
      data-testid={spec.testId}
      aria-label={spec.title}
      data-first-at={rows[0]?.t ?? ''}
      data-gaps={shown.map((g) => g.cause).join(' ')}
      data-restarts={restarted.length}
    >
      <figcaption className="ov-chart-head">
        <span className="ov-chart-title">{spec.title}</span>
        {spec.unit !== '' && <span className="muted"> {spec.unit}</span>}
        {spec.note !== undefined && <span className="muted ov-chart-note">{spec.note}</span>}
      </figcaption>
      {spec.lines.length === 0 ? (
        <p className="empty ov-chart-empty">{spec.testId === 'chart-lag' ? 'No replicas.' : 'No nodes.'}</p>
      ) : rows.length < 2 ? (
        <p className="empty ov-chart-empty">Collecting samples…</p>
      ) : (
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <LineChart {...CHART_PROPS} data={rows} margin={{ top: 6, right: 28, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={GRID_STROKE} vertical={false} />
            <XAxis dataKey="t" type="number" scale="time" domain={['dataMin', 'dataMax']} ticks={xTicks} interval={0} tickFormatter={clock} tick={AXIS_TICK} />
            <YAxis domain={[0, y.ticks.at(-1) ?? 1]} ticks={y.ticks} interval={0} tickFormatter={y.format} tick={AXIS_TICK} width={62} />
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(t) => clock(Number(t))}
              formatter={(v, _name, item) => [v === null || v === undefined ? 'no value' : spec.value(Number(v)), byKey.get(String(item.dataKey))?.label ?? '']}
              itemSorter={(item) => -Number(item.value ?? 0)}
              {...TOOLTIP_STYLE}
            />
            {shown.map((g) => (
              <ReferenceArea
                key={`${g.cause}-${g.from}`}
                x1={g.from}
                x2={g.to}
                fill={GAP_FILL[g.cause]}
                fillOpacity={0.6}
                ifOverflow="hidden"
                label={spanLabel(GAP_LABEL[g.cause], GAP_ROW[g.cause])}
              />
            ))}
            {restarted.map((m) => (
              <ReferenceLine
                key={`restart-${m.t}`}
                x={m.t}
                stroke="#7c3aed"
                strokeDasharray="3 2"
                ifOverflow="hidden"
                label={
                  worded.has(m.t)
                    ? { value: 'restarted', position: 'insideBottomRight', fontSize: 10, fill: '#7c3aed', className: 'ov-restart-label' }
                    : undefined
                }
              />
            ))}
            {drawOrder.map((l) => (
              <Line
                key={l.key}
                dataKey={l.key}
                name={l.label}
                stroke={l.color}
                strokeWidth={l.address === selected ? 2.25 : 1.25}
                strokeDasharray={l.dashed ? '4 3' : undefined}
                dot={false}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      )}
      {legend.length > 0 && (
        <ul className="ov-legend" aria-label="Legend">
          {legend.map((l) => (
            <li key={l.key} className={l.address === selected ? 'is-selected' : undefined}>
              <span className="ov-swatch" style={{ background: l.color }} aria-hidden="true" />
              <span className="mono">{l.address}</span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/**
 * One chart per metric, a line per node, null (no answer) drawn as a gap. Rows are
 * rebuilt each tick from the bounded per-node series; Recharts animation is off.
 */
function ChartsNow({ series, nodes, now, windowMs, pollMs, selected }: Props) {
  const specs = useMemo(() => buildSpecs(series, nodes), [series, nodes]);
  const rows = useMemo(
    () => specs.map((s) => chartRows(s.columns, { from: now - windowMs, toleranceMs: pollMs / 2, gapMs: pollMs * 3.5, maxRows: MAX_ROWS })),
    [specs, now, windowMs, pollMs],
  );
  const gaps = useMemo(() => gapSpans(series, now - windowMs, now), [series, now, windowMs]);
  const restarts = useMemo(() => restartMarks(series, now - windowMs, now), [series, now, windowMs]);
  return (
    <div className="ov-charts">
      {specs.map((s, i) => (
        <MetricChart key={s.testId} spec={s} rows={rows[i] ?? []} selected={selected} gaps={gaps} restarts={restarts} windowMs={windowMs} />
      ))}
    </div>
  );
}

const frameOf = (p: Props) => Math.floor(p.now / redrawEveryMs(p.windowMs, p.pollMs));

/** Skips the redraw of a tick that would move nothing by a whole pixel; anything else the user changed redraws at once. */
export const Charts = memo(
  ChartsNow,
  (a, b) =>
    frameOf(a) === frameOf(b) &&
    a.nodes === b.nodes &&
    a.windowMs === b.windowMs &&
    a.pollMs === b.pollMs &&
    a.selected === b.selected &&
    // The first history (or a resubscribe's) must show without waiting for the frame.
    a.series.size === b.series.size,
);
