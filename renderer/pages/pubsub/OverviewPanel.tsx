import { useMemo } from 'react';
import type { CallOutput } from '../../../app/contract';
import { useCall } from '../../bridge/useCall';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AsOf } from '../../components/LiveState';
import { formatCount, truncate } from '../../lib/format';

type Overview = CallOutput<'pubsub.overview'>;
type Channel = Overview['channels'][number];

/** The overview is read again this often while the page is open. */
export const OVERVIEW_EVERY_MS = 5000;

/** Channels nobody consumes first (those the page asked about before those listed), then the busiest. */
function ordered(channels: readonly Channel[]): Channel[] {
  return [...channels].sort((a, b) => Number(b.noSubscriber) - Number(a.noSubscriber) || Number(b.asked) - Number(a.asked) || b.total - a.total || a.name.text.localeCompare(b.name.text));
}

function Row({ c, nodes }: { c: Channel; nodes: Overview['nodes'] }) {
  return (
    <tr className={c.noSubscriber ? 'is-lonely' : undefined} data-testid="pubsub-overview-row" data-channel={c.name.text} data-total={c.total} data-ours={c.ours} data-lonely={c.noSubscriber}>
      <th scope="row" className="ps-ov-name" title={c.name.text}>
        {truncate(c.name.text, 80)}
        {c.name.truncated && <span className="tag">cut</span>}
      </th>
      <td>{c.shard ? 'shard' : 'channel'}</td>
      {nodes.map((n, i) => (
        <td key={n.address} className="num">
          {c.perNode[i] === null || c.perNode[i] === undefined ? '—' : formatCount(c.perNode[i] ?? 0)}
        </td>
      ))}
      <td className="num">{formatCount(c.total)}</td>
      <td className="num">{c.ours === 0 ? '' : formatCount(c.ours)}</td>
      <td>{c.noSubscriber && <span className="tag tag-warn">{c.total === 0 ? 'no subscriber' : 'only Cacheboard'}</span>}</td>
    </tr>
  );
}

/**
 * PUBSUB on every node, read again every few seconds: each channel counted on each node
 * (NUMSUB, SHARDNUMSUB), NUMPAT per node, and the channels nobody but Cacheboard consumes
 * highlighted. `check` are channels this page named (subscribed or published to): a
 * channel with no subscriber is in no node's list, so it shows only when asked about.
 */
export function OverviewPanel({ profileId, check }: { profileId: string; check: { channel: string; shard: boolean }[] }) {
  const o = useCall('pubsub.overview', { profileId, check }, { intervalMs: OVERVIEW_EVERY_MS });
  const rows = useMemo(() => ordered(o.data?.channels ?? []), [o.data]);
  const nodes = o.data?.nodes ?? [];
  const lonely = rows.filter((c) => c.noSubscriber).length;
  return (
    <section className="panel ps-overview" aria-labelledby="ps-overview-title" data-testid="pubsub-overview">
      <header className="ps-section-head">
        <h2 id="ps-overview-title">Overview</h2>
        <span className="muted">
          PUBSUB CHANNELS, NUMSUB and NUMPAT{o.data?.topology === 'cluster' ? ' (and SHARDCHANNELS, SHARDNUMSUB)' : ''} on every node, every {OVERVIEW_EVERY_MS / 1000} s
          {o.data !== undefined && (
            <>
              {' · '}
              <AsOf at={o.data.at} />
            </>
          )}
        </span>
        <button type="button" className="btn btn-small" onClick={o.refresh} data-testid="pubsub-overview-refresh">
          Refresh
        </button>
      </header>
      <ErrorAlert error={o.error} title="Could not read PUBSUB:" />
      {o.data === undefined ? (
        <p className="empty">{o.loading ? 'Reading every node…' : ''}</p>
      ) : (
        <>
          <p className="hint" data-testid="pubsub-overview-summary">
            {formatCount(rows.length)} channel{rows.length === 1 ? '' : 's'}
            {lonely > 0 ? `, ${formatCount(lonely)} with no subscriber but Cacheboard` : ''}. Pattern subscribers are counted per node (NUMPAT): Redis does not say which channels they match.
          </p>
          <div className="ps-table-wrap">
            <table className="data-table ps-ov-table">
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Kind</th>
                  {nodes.map((n) => (
                    <th scope="col" key={n.address} className="num mono" title={`${n.role}${n.up ? '' : ', down'}`}>
                      {n.address}
                    </th>
                  ))}
                  <th scope="col" className="num">
                    Total
                  </th>
                  <th scope="col" className="num" title="Cacheboard's own subscriber connections (this page's subscriptions)">
                    Ours
                  </th>
                  <th scope="col" />
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <Row key={`${c.shard ? 's' : 'c'}:${c.b64}`} c={c} nodes={nodes} />
                ))}
                {rows.length === 0 && (
                  <tr>
                    <td colSpan={nodes.length + 5} className="muted">
                      No channel has a subscriber on any node.
                    </td>
                  </tr>
                )}
              </tbody>
              <tfoot>
                <tr data-testid="pubsub-numpat">
                  <th scope="row">Pattern subscriptions</th>
                  <td className="muted">NUMPAT</td>
                  {nodes.map((n) => (
                    <td key={n.address} className="num">
                      {n.numpat === null ? '—' : formatCount(n.numpat)}
                    </td>
                  ))}
                  <td colSpan={3} />
                </tr>
              </tfoot>
            </table>
          </div>
          {nodes
            .filter((n) => n.error !== undefined || n.more > 0)
            .map((n) => (
              <p key={n.address} className="hint hint-warn">
                <span className="mono">{n.address}</span>: {n.error ?? `${formatCount(n.more)} more channels not listed (the first 500 by name are)`}
              </p>
            ))}
        </>
      )}
    </section>
  );
}
