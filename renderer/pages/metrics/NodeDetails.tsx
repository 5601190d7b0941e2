import type { NodeSample } from '../../../app/schemas/metrics';
import { clock } from '../../lib/display';
import { truncate } from '../../lib/format';
import { roleLabel } from '../../lib/nodes';
import { KeyspaceTable } from './KeyspaceTable';
import { StatusPill, type CardModel } from './NodeCards';
import { StatGrid } from './StatGrid';

interface Props {
  card: CardModel | undefined;
  order: readonly string[];
  onSelect(address: string): void;
}

function staleNote(lastUp: NodeSample | undefined): string | undefined {
  return lastUp === undefined ? undefined : `as of ${clock(lastUp.at)}`;
}

/** The selected node: the headline stats (the e2e suite's stat-* hooks) and its keyspace. */
export function NodeDetails({ card, order, onSelect }: Props) {
  const sample = card?.sample;
  const up = sample?.up === true;
  const keyspaceFrom = up ? sample : card?.lastUp;
  return (
    <section className="panel ov-details" aria-label="Selected node" data-address={card?.address}>
      <header className="ov-panel-head">
        <h2>Node</h2>
        <select className="ov-node-select mono" value={card?.address ?? ''} onChange={(e) => onSelect(e.target.value)} aria-label="Selected node">
          {order.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        {card !== undefined && (
          <>
            <span className={`ov-role ov-role-${roleLabel(card.role)}`}>{roleLabel(card.role)}</span>
            <StatusPill status={card.status} />
            {card.own && <span className="ov-own">profile</span>}
          </>
        )}
      </header>
      {sample === undefined || card === undefined ? (
        <p className="empty">Waiting for the first poll…</p>
      ) : (
        <>
          {!up && (
            <p className="ov-down-note" title={sample.error}>
              Down{sample.error !== undefined ? `: ${truncate(sample.error, 160)}` : ''}
              {card.lastUp !== undefined && ` · figures below are from ${clock(card.lastUp.at)}`}
            </p>
          )}
          <StatGrid sample={sample} lastUp={card.lastUp} link={card.link} role={card.role} />
          {keyspaceFrom?.keyspace !== undefined ? (
            <KeyspaceTable keyspace={keyspaceFrom.keyspace} stale={up ? undefined : staleNote(card.lastUp)} />
          ) : (
            <p className="empty">No keyspace info.</p>
          )}
        </>
      )}
    </section>
  );
}
