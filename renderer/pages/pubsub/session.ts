import type { Bridge } from '../../../app/bridge';
import { FrameNotifier, nextFrame, type Schedule } from '../../lib/frameNotifier';
import { PubSubFeed, type Row } from './feed';
import { matches } from './exportMessages';

/** What the page wants subscribed: names as base64, subscribed while `running`. */
export interface SubscribePlan {
  profileId: string;
  channels: string[];
  patterns: string[];
  shardChannels: string[];
  running: boolean;
  /** A new value subscribes again: Subscribe again, or the link came back. */
  generation: string;
}

/**
 * The Pub/Sub page's state outside React: one `pubsub.subscribe` folded into a
 * PubSubFeed. Events only mutate; the page renders at most once a frame (FrameNotifier).
 */
export class PubSubSession {
  readonly feed = new PubSubFeed();
  paused = false;
  /** Subscribed now (or ended by the server on this subscription). */
  key: string | undefined;
  live = false;
  private readonly notifier: FrameNotifier;
  private unsubscribe: (() => void) | undefined;
  private frozen: Row[] | undefined;
  private disposed = false;

  constructor(
    private readonly bridge: Pick<Bridge, 'subscribe'>,
    schedule: Schedule = nextFrame,
    minGapMs = 100,
  ) {
    this.notifier = new FrameNotifier(schedule, minGapMs);
  }

  readonly listen = (listener: () => void): (() => void) => this.notifier.listen(listener);
  readonly getVersion = (): number => this.notifier.version;

  sync(plan: SubscribePlan): void {
    this.disposed = false;
    const { running, generation, ...names } = plan;
    const key = running ? JSON.stringify([names, generation]) : undefined;
    if (key === this.key) return;
    this.stop();
    this.key = key;
    if (key !== undefined) this.start(key, names);
    this.changed();
  }

  /** What the list shows, newest first: the paused copy or what is held, narrowed by `query`. */
  view(query: string): Row[] {
    const rows = this.rows();
    const q = query.trim();
    const out: Row[] = [];
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows[i] as Row;
      if (q === '' || matches(r, q)) out.push(r);
    }
    return out;
  }

  /** Everything held (the paused copy while paused), oldest first, for export. */
  rows(): Row[] {
    return this.frozen ?? this.feed.rows.toArray();
  }

  /** Freeze the list; messages and counters keep arriving. */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.frozen = this.feed.rows.toArray();
    this.changed();
  }

  resume(): void {
    this.paused = false;
    this.frozen = undefined;
    this.changed();
  }

  clear(): void {
    this.feed.clear();
    if (this.frozen !== undefined) this.frozen = [];
    this.changed();
  }

  /** Unsubscribe; a later sync subscribes again (React may mount twice). */
  dispose(): void {
    this.disposed = true;
    this.stop();
    this.key = undefined;
  }

  private start(key: string, names: Omit<SubscribePlan, 'running' | 'generation'>): void {
    this.feed.restart('— subscribed again —');
    this.live = true;
    this.unsubscribe = this.bridge.subscribe('pubsub.subscribe', names, {
      onEvents: (events, dropped) => {
        if (this.key !== key) return;
        this.feed.transportDropped = dropped;
        for (const ev of events) this.feed.apply(ev);
        this.changed();
      },
      onEnd: (error) => {
        if (this.key !== key) return;
        this.live = false;
        this.unsubscribe = undefined;
        this.feed.error = error;
        this.changed();
      },
    });
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.live = false;
  }

  private changed(): void {
    if (!this.disposed) this.notifier.changed();
  }
}
