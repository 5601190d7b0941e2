import type { KeyboardEvent } from 'react';
import type { NodeSample } from '../../../app/schemas/metrics';
import { formatLag } from '../../lib/display';
import { formatCompact, formatDuration, truncate } from '../../lib/format';
import { roleLabel, type TopoNode } from '../../lib/nodes';
import { nodeStatus, STATUS_CLASS } from './nodeStatus';
import { replicaLink, type LinkView } from './replication';
import { DEFAULT_SIZE, layoutTopology, type LayoutEdge } from './topologyLayout';

interface Props {
  nodes: readonly TopoNode[];
  samples: readonly NodeSample[];
  colors: ReadonlyMap<string, string>;
  selected: string | undefined;
  onSelect(address: string): void;
}

const { boxW, boxH } = DEFAULT_SIZE;
/** Characters of an address that fit in a box at 11px monospace; the full one is in the title. */
const ADDRESS_CHARS = 18;

function edgeLabel(link: LinkView): string {
  if (link.state === 'down') {
    return link.downSeconds !== undefined && link.downSeconds >= 0 ? `down ${formatDuration(link.downSeconds)}` : 'link down';
  }
  if (link.lagBytes !== undefined && link.lagSeconds !== undefined) {
    const lag = formatLag(link.lagBytes, link.lagSeconds);
    return link.state === 'sync' ? `${link.detail ?? 'sync'} · ${lag}` : lag;
  }
  return link.state === 'up' ? 'link up' : (link.detail ?? link.state);
}

/** Out of the master, bend to the replica's row early, then run straight: the lag label sits on the straight part. */
function edgePath(e: LayoutEdge): string {
  const bendFrom = e.x1 + 12;
  const bendTo = e.x1 + 44;
  return `M${e.x1},${e.y1} H${bendFrom} C${bendFrom + 20},${e.y1} ${bendTo - 20},${e.y2} ${bendTo},${e.y2} H${e.x2 - 6}`;
}

function stateOf(link: LinkView | undefined): LinkView['state'] {
  return link?.state ?? 'unknown';
}

const STATES: LinkView['state'][] = ['up', 'sync', 'lagging', 'down', 'unknown'];

/**
 * Master → replicas (and chains) in plain SVG: a box per node, an edge per
 * replication link coloured by its state and labelled with the lag.
 */
export function TopologyGraph({ nodes, samples, colors, selected, onSelect }: Props) {
  const layout = layoutTopology(nodes);
  const edges = layout.edges.map((e) => ({ e, link: replicaLink(e.to, e.from, samples) }));
  const bySample = new Map(samples.map((s) => [s.address, s]));
  const onKey = (address: string) => (ev: KeyboardEvent) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      onSelect(address);
    }
  };
  return (
    <figure className="panel ov-topology" data-testid="topology" aria-label="Replication topology">
      <figcaption className="ov-panel-title">
        Topology
        <span className="ov-legend-inline">
          <span className="ov-link-up">● link up</span>
          <span className="ov-link-sync">● syncing</span>
          <span className="ov-link-lagging">● lagging</span>
          <span className="ov-link-down">● down</span>
        </span>
      </figcaption>
      {layout.boxes.length === 0 ? (
        <p className="empty">Waiting for the first poll…</p>
      ) : (
        <div className="ov-topology-scroll">
          {/* Full size when it fits, scaled down (never up) when a chain makes it wider than the panel. */}
          <svg
            width="100%"
            viewBox={`0 0 ${layout.width} ${layout.height}`}
            style={{ maxWidth: layout.width }}
            role="group"
            aria-label="Nodes and replication links"
          >
            <defs>
              {STATES.map((st) => (
                <marker
                  key={st}
                  id={`ov-arrow-${st}`}
                  viewBox="0 0 8 8"
                  refX="1"
                  refY="4"
                  markerWidth="7"
                  markerHeight="7"
                  orient="auto"
                  className={`ov-link-${st}`}
                >
                  <path d="M0,0 L8,4 L0,8 z" className="ov-arrow" />
                </marker>
              ))}
            </defs>
            {/* Lines first, labels over all of them, so no edge crosses another's label. */}
            {edges.map(({ e, link }) => (
              <path
                key={`${e.from}>${e.to}`}
                d={edgePath(e)}
                className={`ov-edge ov-link-${stateOf(link)}`}
                data-from={e.from}
                data-to={e.to}
                data-link={stateOf(link)}
                markerEnd={`url(#ov-arrow-${stateOf(link)})`}
              />
            ))}
            {edges.map(({ e, link }) =>
              link === undefined ? null : (
                <text key={`${e.from}>${e.to}`} x={e.x2 - 10} y={e.y2 - 5} textAnchor="end" className={`ov-edge-label ov-link-${link.state}`}>
                  {edgeLabel(link)}
                </text>
              ),
            )}
            {layout.boxes.map((b) => {
              const s = bySample.get(b.address);
              const up = s?.up ?? (b.phantom ? false : b.node.up);
              const status = s === undefined ? (up ? 'up' : 'unreachable') : nodeStatus(s);
              const cls = ['ov-tnode', STATUS_CLASS[status], b.phantom ? 'is-phantom' : '', b.address === selected ? 'is-selected' : ''].join(' ');
              const role = b.phantom ? 'not polled' : up ? roleLabel(s?.role ?? b.node.role) : status;
              const ops = up && s?.traffic !== undefined ? `${formatCompact(s.traffic.opsPerSec)} ops/s` : '';
              return (
                <g
                  key={b.address}
                  className={cls}
                  transform={`translate(${b.x},${b.y})`}
                  data-testid="topology-node"
                  data-address={b.address}
                  data-up={String(up)}
                  role="button"
                  tabIndex={b.phantom ? -1 : 0}
                  aria-label={`${b.address}, ${role}`}
                  aria-pressed={b.address === selected}
                  onClick={b.phantom ? undefined : () => onSelect(b.address)}
                  onKeyDown={b.phantom ? undefined : onKey(b.address)}
                >
                  <title>{`${b.address} · ${role}${s?.error !== undefined ? ` · ${s.error}` : ''}`}</title>
                  <rect width={boxW} height={boxH} rx={5} className="ov-tnode-box" />
                  <rect width={4} height={boxH} rx={2} fill={colors.get(b.address) ?? 'var(--faint)'} />
                  <text x={11} y={15} className="ov-tnode-addr">
                    {truncate(b.address, ADDRESS_CHARS)}
                  </text>
                  <text x={11} y={29} className="ov-tnode-role">
                    {role}
                  </text>
                  <text x={boxW - 7} y={29} textAnchor="end" className="ov-tnode-ops">
                    {ops}
                  </text>
                </g>
              );
            })}
          </svg>
        </div>
      )}
    </figure>
  );
}
