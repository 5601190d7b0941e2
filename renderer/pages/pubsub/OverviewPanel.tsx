import { useEffect, useMemo, useRef, useState } from 'react';
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
  return [...channels].sort(
    (a, b) =>
      Number(b.noSubscriber) - Number(a.noSubscriber) || Number(b.asked) - Number(a.asked) || b.total - a.total || a.name.text.localeCompare(b.name.text),
  );
}

/** What the flag says: with pattern subscriptions on a node, one may match a channel NUMSUB counts none on. */
function flag(c: Channel, nodes: Overview['nodes']): { text: string; title: string | undefined } {
  if (c.total > 0) return { text: 'only Cacheboard', title: 'The subscribers counted are Cacheboard’s own (this page’s subscriptions)' };
  const patterns = nodes.reduce((n, node) => n + (node.numpat ?? 0), 0);
  if (patterns === 0) return { text: 'no subscriber', title: undefined };
  return {
    text: 'no channel subscriber',
    title: `${formatCount(patterns)} pattern subscription${patterns === 1 ? '' : 's'} may match it: Redis does not say which`,
  };
}

function Row({ c, nodes }: { c: Channel; nodes: Overview['nodes'] }) {
  const f = c.noSubscriber ? flag(c, nodes) : undefined;
  return (
    <tr
      className={c.noSubscriber ? 'is-lonely' : undefined}
      data-testid="pubsub-overview-row"
      data-channel={c.name.text}
      data-total={c.total}
      data-ours={c.ours}
      data-lonely={c.noSubscriber}
    >
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
      <td>
        {f !== undefined && (
          <span className="tag tag-warn" title={f.title}>
            {f.text}
          </span>
        )}
      </td>
    </tr>
  );
}

/**
 * PUBSUB on every node, read again every few seconds: each channel counted on each node
 * (NUMSUB, SHARDNUMSUB), NUMPAT per node, and the channels nobody but Cacheboard consumes
 * highlighted. `check` are channels this page named (subscribed or published to): a
 * channel with no subscriber is in no node's list, so it shows only when asked about.
 */
export function OverviewPanel({ profileId, check, readAgainOn }: { profileId: string; check: { channel: string; shard: boolean }[]; readAgainOn: string }) {
  // The last answer stays shown while the next is read (a new `check` is a new input, which useCall starts empty).
  const [last, setLast] = useState<Overview>();
  const o = useCall('pubsub.overview', { profileId, check }, { intervalMs: OVERVIEW_EVERY_MS, onData: setLast });
  const data = o.data ?? last;
  // Read again at once when this page's subscriptions go live or stop: its own counts changed.
  const seen = useRef(readAgainOn);
  const { refresh } = o;
  useEffect(() => {
    if (seen.current === readAgainOn) return;
    seen.current = readAgainOn;
    refresh();
  }, [readAgainOn, refresh]);
  const rows = useMemo(() => ordered(data?.channels ?? []), [data]);
  const nodes = data?.nodes ?? [];
  const lonely = rows.filter((c) => c.noSubscriber).length;
  return (
    <section className="panel ps-overview" aria-labelledby="ps-overview-title" data-testid="pubsub-overview">
      <header className="ps-section-head">
        <h2 id="ps-overview-title">Overview</h2>
        <span className="muted">
          PUBSUB CHANNELS, NUMSUB and NUMPAT{data?.topology === 'cluster' ? ' (and SHARDCHANNELS, SHARDNUMSUB)' : ''} on every node, every{' '}
          {OVERVIEW_EVERY_MS / 1000} s
          {data !== undefined && (
            <>
              {' · '}
              <AsOf at={data.at} />
            </>
          )}
        </span>
        <button type="button" className="btn btn-small" onClick={o.refresh} data-testid="pubsub-overview-refresh">
          Refresh
        </button>
      </header>
      <ErrorAlert error={o.error} title="Could not read PUBSUB:" />
      {data === undefined ? (
        <p className="empty">{o.loading ? 'Reading every node…' : ''}</p>
      ) : (
        <>
          <p className="hint" data-testid="pubsub-overview-summary">
            {formatCount(rows.length)} channel{rows.length === 1 ? '' : 's'}
            {lonely > 0 ? `, ${formatCount(lonely)} with no subscriber but Cacheboard` : ''}. Pattern subscribers are counted per node (NUMPAT): Redis does not
            say which channels they match.
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
