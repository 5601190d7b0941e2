import type { NodeSample } from '../../../app/schemas/metrics';
import { formatLag, percentOf } from '../../lib/display';
import { formatBytes, formatCount, formatDuration, truncate } from '../../lib/format';
import { roleLabel } from '../../lib/nodes';
import { serverTitle } from '../../../app/redis/serverTitle';
import { STATUS_CLASS, type NodeStatus } from './nodeStatus';
import type { LinkView } from './replication';

export interface CardModel {
  address: string;
  color: string;
  /** This tick's sample; undefined for a node known only from the topology. */
  sample: NodeSample | undefined;
  /** The last sample while up, for what a down node last said. */
  lastUp: NodeSample | undefined;
  role: string;
  link: LinkView | undefined;
  alerts: { count: number; severity: 'warning' | 'critical' } | undefined;
  own: boolean;
  /** Seconds since the last sample while up, for a down node. */
  downForSeconds: number | undefined;
  /** What the last poll said; undefined before the node was polled. */
  status: NodeStatus | undefined;
  /** Seconds since the node last answered from a new server run (run_id changed), within the charts' window. */
  restartedSecondsAgo: number | undefined;
}

/** The node's state in one word: up, slow (its connection open, the answer late) or unreachable. */
export function StatusPill({ status }: { status: NodeStatus | undefined }) {
  const s = status ?? 'unreachable';
  return (
    <span className={`ov-updown ${STATUS_CLASS[s]}`} data-testid="node-status">
      {status === undefined ? 'not polled' : s}
    </span>
  );
}

const LINK_TEXT: Record<LinkView['state'], string> = {
  up: 'link up',
  sync: 'syncing',
  lagging: 'lagging',
  down: 'link down',
  unknown: 'link ?',
};

function MemoryBar({ used, max }: { used: number; max: number }) {
  const pct = percentOf(used, max);
  const level = pct >= 90 ? 'crit' : pct >= 75 ? 'warn' : 'ok';
  return (
    <span className="ov-membar" title={max > 0 ? `${pct.toFixed(1)} % of maxmemory` : 'no maxmemory set'}>
      <span className={`ov-membar-fill ov-membar-${level}`} style={{ width: `${pct}%` }} />
    </span>
  );
}

function LinkLine({ link }: { link: LinkView }) {
  return (
    <span className={`ov-card-link ov-link-${link.state}`}>
      <span className="ov-dot" aria-hidden="true" />
      <span>{LINK_TEXT[link.state]}</span>
      {link.state === 'down' && link.downSeconds !== undefined && link.downSeconds >= 0 && <span className="muted"> {formatDuration(link.downSeconds)}</span>}
      {link.lagBytes !== undefined && link.lagSeconds !== undefined && (
        <span className="ov-card-lag" title="Bytes behind the master · seconds since the last ack">
          lag {formatLag(link.lagBytes, link.lagSeconds)}
        </span>
      )}
    </span>
  );
}

function NodeCard({ m, selected, onSelect }: { m: CardModel; selected: boolean; onSelect(address: string): void }) {
  const s = m.sample;
  const up = s?.up ?? false;
  const replicas = s?.replication?.replicas ?? [];
  const online = replicas.filter((r) => r.state === 'online').length;
  const look = up ? 'ov-card-up' : m.status === 'slow' ? 'ov-card-slow' : 'ov-card-down';
  const cls = ['ov-card', look, selected ? 'ov-card-selected' : ''].join(' ');
  return (
    <button
      type="button"
      className={cls}
      data-testid="node-card"
      data-address={m.address}
      data-up={String(up)}
      data-status={m.status ?? ''}
      data-restarted={m.restartedSecondsAgo === undefined ? undefined : 'true'}
      aria-pressed={selected}
      onClick={() => onSelect(m.address)}
      title={m.address}
    >
      <span className="ov-card-head">
        <span className="ov-swatch" style={{ background: m.color }} aria-hidden="true" />
        <span className="ov-card-addr mono">{truncate(m.address, 40)}</span>
        {m.alerts !== undefined && (
          <span className={`ov-card-alerts ov-sev-${m.alerts.severity}`}>
            {m.alerts.count} alert{m.alerts.count === 1 ? '' : 's'}
          </span>
        )}
      </span>
      <span className="ov-card-state">
        <StatusPill status={m.status} />
        <span className={`ov-role ov-role-${roleLabel(m.role)}`}>{roleLabel(m.role)}</span>
        {m.restartedSecondsAgo !== undefined && (
          <span className="ov-restarted" data-testid="node-restarted" title="The node answered with a new run_id: it restarted, its data and counters afresh">
            restarted {formatDuration(m.restartedSecondsAgo)} ago
          </span>
        )}
        {m.own && <span className="ov-own">profile</span>}
        {up && s?.version !== undefined && <span className="muted ov-card-ver">{serverTitle(s.server, s.version)}</span>}
      </span>
      {up && s !== undefined ? (
        <>
          <span className="ov-card-figs">
            <span>
              {/* No figure (INFO refused) reads as unknown, never 0. */}
              <b>{s.traffic === undefined ? '?' : formatCount(s.traffic.opsPerSec)}</b> ops/s
            </span>
            <span>
              <b>{s.clients === undefined ? '?' : formatCount(s.clients.connected)}</b> client{s.clients?.connected === 1 ? '' : 's'}
            </span>
          </span>
          {s.memory !== undefined && (
            <span className="ov-card-mem">
              <span>
                <b>{formatBytes(s.memory.used)}</b>
                <span className="muted"> / {s.memory.maxmemory > 0 ? formatBytes(s.memory.maxmemory) : 'no limit'}</span>
              </span>
              {/* No maxmemory: an empty bar would read as 0 %, so none. */}
              {s.memory.maxmemory > 0 && <MemoryBar used={s.memory.used} max={s.memory.maxmemory} />}
            </span>
          )}
          {m.link !== undefined ? (
            <LinkLine link={m.link} />
          ) : (
            <span className="ov-card-link muted">
              {s.replication === undefined ? 'replicas unknown' : replicas.length === 0 ? 'no replicas' : `${online}/${replicas.length} replicas online`}
            </span>
          )}
        </>
      ) : (
        <span className="ov-card-error">
          <span className="ov-card-errtext" title={s?.error}>
            {s?.error !== undefined ? truncate(s.error, 90) : 'not polled'}
          </span>
          {m.status === 'slow' && <span className="muted">connection open, answer late</span>}
          {m.lastUp !== undefined && (
            <span className="muted">
              last up {m.downForSeconds === undefined ? '' : `${formatDuration(m.downForSeconds)} ago`} ·{' '}
              {serverTitle(m.lastUp.server, m.lastUp.version ?? '?')}
            </span>
          )}
        </span>
      )}
    </button>
  );
}

/** One card per node, master first; a click picks the node the details below show. */
export function NodeCards({ cards, selected, onSelect }: { cards: readonly CardModel[]; selected: string | undefined; onSelect(address: string): void }) {
  return (
    <section className="ov-cards" aria-label="Nodes">
      {cards.map((m) => (
        <NodeCard key={m.address} m={m} selected={m.address === selected} onSelect={onSelect} />
      ))}
    </section>
  );
}
