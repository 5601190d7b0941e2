import { memo } from 'react';
import type { NodeClients } from '../../../app/schemas/clients';
import { clock } from '../../lib/display';
import { formatBytes, formatCount } from '../../lib/format';
import { noun, plural } from '../../lib/plural';
import { roleLabel } from '../../lib/nodes';
import { RestrictionNotice } from '../../components/RestrictionNotice';

/** Names and users shown per node card (the totals carry 12 of each). */
const TOP_SHOWN = 5;

interface Props {
  nodes: readonly NodeClients[];
  /** Undefined: no Pause controls (the role or the profile does not allow them; the page says why). */
  onPause: ((address: string) => void) | undefined;
  onUnpause: ((address: string) => void) | undefined;
}

function Top({ title, items, total }: { title: string; items: readonly { name: string; count: number }[]; total: number }) {
  const rest = total - items.slice(0, TOP_SHOWN).reduce((s, i) => s + i.count, 0);
  return (
    <table className="cl-top">
      <caption>{title}</caption>
      <tbody>
        {items.slice(0, TOP_SHOWN).map((i) => (
          <tr key={i.name}>
            <td className="mono" title={i.name}>
              {i.name === '' ? <span className="muted">(no name)</span> : i.name}
            </td>
            <td className="num">{formatCount(i.count)}</td>
          </tr>
        ))}
        {rest > 0 && (
          <tr>
            <td className="muted">others</td>
            <td className="num muted">{formatCount(rest)}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** Per node: its clients by name and by user, its memory, its pause, and why it could not be read. */
export const NodeCards = memo(function NodeCards({ nodes, onPause, onUnpause }: Props) {
  return (
    <div className="cl-nodes" data-testid="clients-nodes">
      {nodes.map((n) => {
        const pauseRefused = n.writeRestrictions?.some((r) => r.command === 'CLIENT PAUSE') === true;
        return (
          <section key={n.address} className="panel cl-node" aria-label={`Node ${n.address}`} data-testid="clients-node" data-address={n.address}>
            <header className="cl-node-head">
              <span className="mono cl-node-address">{n.address}</span>
              <span className="badge">{roleLabel(n.role)}</span>
              <span className="muted" data-testid="clients-node-count" data-value={n.totals.clients}>
                {n.restrictions === undefined ? `${plural(n.totals.clients, 'client')} · ${formatBytes(n.totals.memory.totMem)}` : '? clients'}
              </span>
              {n.paused !== undefined && (
                <span className="badge badge-connecting" data-testid="clients-node-paused">
                  {n.paused.mode === 'ALL' ? 'all commands' : 'writes'} paused until {clock(n.paused.until)}
                </span>
              )}
              <span className="cl-node-actions">
                {onPause !== undefined && n.paused === undefined && !pauseRefused && (
                  <button type="button" className="btn btn-small" onClick={() => onPause(n.address)} data-testid="clients-pause">
                    Pause…
                  </button>
                )}
                {onUnpause !== undefined && n.paused?.mode === 'WRITE' && (
                  <button type="button" className="btn btn-small" onClick={() => onUnpause(n.address)} data-testid="clients-unpause">
                    Unpause…
                  </button>
                )}
              </span>
            </header>
            {n.error !== undefined && (
              <p className="alert alert-error" role="alert" data-testid="clients-node-error">
                <span>{n.error.message}</span>
                <span className="alert-code">{n.error.code}</span>
              </p>
            )}
            {n.restrictions !== undefined && <RestrictionNotice restrictions={n.restrictions} />}
            {n.writeRestrictions !== undefined && <RestrictionNotice restrictions={n.writeRestrictions} />}
            {n.limitsNote !== undefined && (
              <p className="hint hint-warn" data-testid="clients-limits-note">
                {n.limitsNote}
              </p>
            )}
            {n.notShown > 0 && (
              <p className="hint">{formatCount(n.notShown)} more clients are counted here but not listed: the highlighted and the biggest are.</p>
            )}
            {n.unparsed > 0 && (
              <p className="hint">
                {plural(n.unparsed, 'line')} of CLIENT LIST did not read as a client and {noun(n.unparsed, 'was', 'were')} skipped.
              </p>
            )}
            {n.error === undefined && n.restrictions === undefined && (
              <div className="cl-node-tops">
                <Top title="By name" items={n.totals.byName} total={n.totals.clients} />
                <Top title="By user" items={n.totals.byUser} total={n.totals.clients} />
              </div>
            )}
          </section>
        );
      })}
    </div>
  );
});
