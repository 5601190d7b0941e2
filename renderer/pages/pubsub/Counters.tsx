import { formatCount } from '../../lib/format';
import { HELD_MESSAGES, type PubSubFeed } from './feed';

interface CounterProps {
  label: string;
  value: number | undefined;
  sub: string;
  testId: string;
  warn?: boolean;
  title?: string;
}

/** One figure; `data-value` holds the exact number for tools that read the page. */
function Counter({ label, value, sub, testId, warn = false, title }: CounterProps) {
  return (
    <div className={`stat ps-counter${warn ? ' is-warn' : ''}`} title={title}>
      <dt>{label}</dt>
      <dd>
        <span className="stat-value" data-testid={testId} data-value={value ?? ''}>
          {value === undefined ? '—' : formatCount(value)}
        </span>
        <span className="stat-sub">{sub}</span>
      </dd>
    </div>
  );
}

/** This page's counters exactly as the server counted them (received = delivered + dropped), and what the page holds. */
export function Counters({ feed, held }: { feed: PubSubFeed; held: number }) {
  const c = feed.counters;
  return (
    <dl className="stat-grid ps-counters" aria-label="Counters">
      <Counter label="Received" value={c?.received} sub="matched by these subscriptions" testId="pubsub-received" title="Messages the shared subscriber connections read for this page since it subscribed" />
      <Counter label="Delivered" value={c?.delivered} sub="sent to this page" testId="pubsub-delivered" />
      <Counter
        label="Dropped"
        value={c?.dropped}
        sub="this page could not take in time"
        testId="pubsub-dropped"
        warn={(c?.dropped ?? 0) > 0}
        title="Messages received for this page while it lagged: counted on the server, never shown. A page takes at most 20,000 a second."
      />
      <Counter label="Held here" value={held} sub={`the newest, at most ${formatCount(HELD_MESSAGES)}`} testId="pubsub-held" title="Messages this page keeps for the list, the filter and the export" />
    </dl>
  );
}
