import { CounterStat } from '../../components/CounterStat';
import { formatCount } from '../../lib/format';
import { HELD_MESSAGES, type PubSubFeed } from './feed';

/** This page's counters exactly as the server counted them (received = delivered + dropped), and what the page holds. */
export function Counters({ feed, held }: { feed: PubSubFeed; held: number }) {
  const c = feed.counters;
  return (
    <dl className="stat-grid ps-counters" aria-label="Counters">
      <CounterStat
        label="Received"
        value={c?.received}
        sub="matched by these subscriptions"
        testId="pubsub-received"
        title="Messages the shared subscriber connections read for this page since it subscribed"
      />
      <CounterStat label="Delivered" value={c?.delivered} sub="sent to this page" testId="pubsub-delivered" />
      <CounterStat
        label="Dropped"
        value={c?.dropped}
        sub="this page could not take in time"
        testId="pubsub-dropped"
        warn={(c?.dropped ?? 0) > 0}
        title="Messages received for this page while it lagged: counted on the server, never shown. A page takes at most 20,000 a second."
      />
      <CounterStat
        label="Held here"
        value={held}
        sub={`the newest, at most ${formatCount(HELD_MESSAGES)}`}
        testId="pubsub-held"
        title="Messages this page keeps for the list, the filter and the export"
      />
    </dl>
  );
}
