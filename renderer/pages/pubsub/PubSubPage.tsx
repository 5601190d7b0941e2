import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { useLinkStatus } from '../../bridge/BridgeContext';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoProfile } from '../../components/NoProfile';
import { PauseButtons } from '../../components/PauseButtons';
import { downloadText } from '../../lib/download';
import { formatCount } from '../../lib/format';
import { useProfiles } from '../../profiles/ProfilesContext';
import { Counters } from './Counters';
import { exportName, toNdjson } from './exportMessages';
import { MessageDetail } from './MessageDetail';
import { MessageList } from './MessageList';
import { OverviewPanel } from './OverviewPanel';
import { PublishBox } from './PublishBox';
import { draftNames, EMPTY_DRAFT, NodeStates, SubscribeFields, type NamesDraft } from './SubscribeForm';
import { usePubSubSession } from './usePubSubSession';
import './pubsub.css';

// Recharts is most of the bundle; it shares its lazy chunk with the other pages' charts.
const RateChart = lazy(() => import('./RateChart').then((m) => ({ default: m.RateChart })));

/** Channels the overview counts even unlisted: most recently named first, a bounded few. */
const MAX_CHECKED = 50;

/**
 * Pub/Sub of one profile: subscribe to channels, patterns and shard channels (one
 * subscriber connection per node, shared by every viewer), read the messages, publish
 * (ops), and see who subscribes to what on every node.
 */
export function PubSubPage() {
  const { profiles, selected, loading, error } = useProfiles();
  if (selected === undefined) {
    return <NoProfile loading={loading && profiles.length === 0} error={error} purpose="listen to and publish on its channels" testId="pubsub-no-profile" />;
  }
  return <ProfilePubSub key={selected.id} profile={selected} />;
}

function ProfilePubSub({ profile }: { profile: ProfileView }) {
  const cluster = profile.topology?.kind === 'cluster';
  const { epoch } = useLinkStatus();
  const [draft, setDraft] = useState<NamesDraft>(EMPTY_DRAFT);
  const [applied, setApplied] = useState<NamesDraft>(EMPTY_DRAFT);
  const [running, setRunning] = useState(false);
  const [run, setRun] = useState(0);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<number>();
  const [published, setPublished] = useState<{ channel: string; shard: boolean }[]>([]);

  const typed = draftNames(draft, cluster);
  const names = draftNames(applied, cluster).names;
  const session = usePubSubSession({ profileId: profile.id, ...names, running, generation: `${run}:${epoch}` });
  const feed = session.feed;
  const empty = typed.names.channels.length + typed.names.patterns.length + typed.names.shardChannels.length === 0;
  const invalid = Object.keys(typed.errors).length > 0;
  const rows = session.view(query);
  const held = feed.rows.length;
  const message = useMemo(() => {
    const r = rows.find((x) => x.seq === selected);
    return r?.kind === 'message' ? r.m : undefined;
  }, [rows, selected]);
  const onSelect = useCallback((seq: number) => setSelected(seq), []);

  // What the overview counts besides what nodes list: the names subscribed here and those published to.
  const check = useMemo(() => {
    const out = [
      ...published,
      ...names.channels.map((channel) => ({ channel, shard: false })),
      ...names.shardChannels.map((channel) => ({ channel, shard: true })),
    ];
    return out.filter((c, i) => out.findIndex((d) => d.channel === c.channel && d.shard === c.shard) === i).slice(0, MAX_CHECKED);
  }, [published, names.channels, names.shardChannels]);
  const onPublished = useCallback((channel: string, shard: boolean) => setPublished((p) => [{ channel, shard }, ...p].slice(0, MAX_CHECKED)), []);

  const subscribe = () => {
    setApplied(draft);
    setRunning(true);
    setRun((n) => n + 1);
  };
  const states = feed.plan.map((n) => ({
    address: n.address,
    names: n.channels.length + n.patterns.length + n.shardChannels.length,
    state: feed.states.get(n.address)?.state ?? 'connecting',
    ...(feed.states.get(n.address)?.message === undefined ? {} : { message: feed.states.get(n.address)?.message }),
  }));

  return (
    <div className="page ps-page">
      <div className="toolbar">
        <p className="page-intro">
          <strong>{profile.name}</strong> · listen to its channels, publish, and see which channels anyone consumes
        </p>
      </div>
      <div className="ps-top">
        <section className="panel ps-subscribe" aria-labelledby="ps-subscribe-title">
          <h2 id="ps-subscribe-title">Subscribe</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!empty && !invalid) subscribe();
            }}
          >
            <SubscribeFields draft={draft} onDraft={setDraft} cluster={cluster} errors={typed.errors} />
            <div className="form-actions ps-run">
              <button type="submit" className="btn btn-primary" disabled={empty || invalid} data-testid="pubsub-subscribe">
                {session.live ? 'Subscribe again' : 'Subscribe'}
              </button>
              <button type="button" className="btn" disabled={!session.live} onClick={() => setRunning(false)} data-testid="pubsub-stop">
                Stop
              </button>
              <PauseButtons list={session} testPrefix="pubsub" items="messages" clearDisabled={held === 0} />
            </div>
          </form>
          <NodeStates nodes={states} />
          <ErrorAlert error={feed.error?.code === 'DISCONNECTED' ? undefined : feed.error} title="The subscription ended:" />
          {feed.notices.map((n, i) => (
            <p key={i} className="hint hint-warn">
              {n}
            </p>
          ))}
        </section>
        <PublishBox profileId={profile.id} cluster={cluster} onPublished={onPublished} />
      </div>
      <Counters feed={feed} held={held} />
      {feed.transportDropped > 0 && (
        <p className="hint hint-warn">{formatCount(feed.transportDropped)} batches were lost on the way to this page; the counters above stay exact.</p>
      )}
      {/* Mounted before the first message, so the chart's chunk is loaded before messages stream in. */}
      <Suspense fallback={<div className="panel chart">Loading chart…</div>}>
        <RateChart points={feed.rates.toArray()} version={feed.statsVersion} />
      </Suspense>
      <section className="panel ps-messages" aria-labelledby="ps-messages-title">
        <header className="ps-section-head">
          <h2 id="ps-messages-title">Messages</h2>
          <span className="muted">newest first</span>
          <input
            type="search"
            className="ps-filter"
            placeholder="Filter by channel, pattern or payload"
            aria-label="Filter the held messages"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="pubsub-filter"
          />
          <button
            type="button"
            className="btn btn-small"
            disabled={held === 0}
            onClick={() => downloadText(exportName(profile.name, new Date()), toNdjson(session.rows()), 'application/x-ndjson')}
            title="The held messages, one JSON object a line"
            data-testid="pubsub-export"
          >
            Export NDJSON
          </button>
        </header>
        {session.paused && (
          <p className="hint" role="status">
            Paused: the list holds still while messages and counters keep arriving.
          </p>
        )}
        {query.trim() !== '' && (
          <p className="hint" data-testid="pubsub-filter-count">
            {formatCount(rows.filter((r) => r.kind === 'message').length)} of {formatCount(held)} held messages match
          </p>
        )}
        <MessageList rows={rows} selected={selected} onSelect={onSelect} held={held} filtered={query.trim() !== ''} />
        <MessageDetail m={message} />
      </section>
      <OverviewPanel profileId={profile.id} check={check} readAgainOn={`${run}:${feed.live}:${session.live}`} />
    </div>
  );
}
