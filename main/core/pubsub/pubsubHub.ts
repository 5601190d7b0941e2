import type { AppError } from '../../../app/errors';
import type { NodeLinkState } from '../../../app/schemas/pubsub';
import { ViewerQueue, type ViewerBatch } from '../live/viewerQueue';
import type { RawConnection } from '../resp/rawConnection';
import { SubscriberNode, type Member, type NameKind, type RawMessage, type WantedName } from './subscriberNode';

/** What one viewer asked for, as bytes. */
export interface PubSubNames {
  channels: readonly Buffer[];
  patterns: readonly Buffer[];
  shardChannels: readonly Buffer[];
}

/** Where a viewer's names go: one node and what is subscribed there. */
export interface NodePlan {
  address: string;
  /** A fresh raw connection to the node, authenticated and named as ours. */
  open(): Promise<RawConnection>;
  channels: Buffer[];
  patterns: Buffer[];
  shardChannels: { name: Buffer; slot: number }[];
}

export interface Counts {
  at: number;
  received: number;
  delivered: number;
  dropped: number;
}

export interface PubSubViewer {
  /** Where each name goes: told first, before any state or message. */
  plan(nodes: readonly NodePlan[]): void;
  messages(batch: ViewerBatch<RawMessage>): void;
  stats(counts: Counts): void;
  state(address: string, state: NodeLinkState, message?: string): void;
  gap(address: string, from: number, to: number, reason: string): void;
  notice(address: string, message: string): void;
  /** The stream ends: a node refused a name, or could not be reached. */
  end(err?: AppError): void;
  /** The transport still holds earlier batches: this tick's messages are dropped and counted instead. */
  congested(): boolean;
}

export interface PubSubHubOptions {
  /** The nodes a connection id's names go to (checked against the profile's own servers). */
  plan(connectionId: string, names: PubSubNames): Promise<NodePlan[]>;
  /** 50 ms: at most 20 batches a second per viewer. */
  tickMs?: number;
  statsMs?: number;
  /** Most messages one viewer gets per tick; the rest are dropped and counted. */
  maxPerTick?: number;
  /** Most kept bytes one viewer holds per tick (channel, pattern and payload bytes). */
  maxBytesPerTick?: number;
  /** Bytes of each channel name and payload kept (and shown); the rest is skipped as it is read. */
  keepBytes?: number;
}

interface NodeEntry {
  key: string;
  node: SubscriberNode;
}

const DEFAULTS = { tickMs: 50, statsMs: 1000, maxPerTick: 1000, maxBytesPerTick: 512 * 1024, keepBytes: 4096 };

const weigh = (m: RawMessage) => m.channel.bytes.length + m.payload.bytes.length + (m.pattern?.bytes.length ?? 0) + 64;

/**
 * Pub/Sub viewers over shared subscriber connections: one SubscriberNode per
 * (connection id, node), opened with its first viewer and closed with its last, as
 * MONITOR's hub does. Each viewer has its own ViewerQueue: messages its names
 * matched are offered to it as they are read, handed over each tick at most
 * `maxPerTick` and `maxBytesPerTick` at a time, and dropped with an exact count
 * when its transport lags, so received = delivered + dropped at every batch.
 */
export class PubSubHub {
  private readonly nodes = new Map<string, NodeEntry>();
  /** Each viewer's leave function, and the viewer (told at shutdown). */
  private readonly viewers = new Map<() => void, PubSubViewer>();
  private readonly o: Required<Omit<PubSubHubOptions, 'plan'>>;

  constructor(private readonly opts: PubSubHubOptions) {
    const given = Object.fromEntries(Object.entries(opts).filter(([, v]) => typeof v === 'number'));
    this.o = { ...DEFAULTS, ...given };
  }

  /** Subscribe; returns the function that stops (idempotent). */
  async watch(connectionId: string, names: PubSubNames, viewer: PubSubViewer): Promise<() => void> {
    const plan = await this.opts.plan(connectionId, names);
    viewer.plan(plan);
    const queue = new ViewerQueue<RawMessage>({ maxItems: this.o.maxPerTick, maxBytes: this.o.maxBytesPerTick }, weigh);
    const joined: { entry: NodeEntry; member: Member }[] = [];
    let left = false;
    const tick = () => {
      const b = queue.take(() => viewer.congested());
      if (b !== undefined) viewer.messages(b);
    };
    const timers = [
      setInterval(tick, this.o.tickMs),
      setInterval(() => {
        // Flushed first, so the counts add up: received = delivered + dropped, none held.
        tick();
        viewer.stats({ at: Date.now(), received: queue.offered, delivered: queue.delivered, dropped: queue.dropped });
      }, this.o.statsMs),
    ];
    const leave = () => {
      if (left) return;
      left = true;
      for (const t of timers) clearInterval(t);
      queue.clear();
      this.viewers.delete(leave);
      for (const { entry, member } of joined) {
        if (entry.node.remove(member) === 0) this.close(entry);
      }
    };
    this.viewers.set(leave, viewer);
    for (const p of plan) {
      const key = `${connectionId}|${p.address}`;
      const entry = this.nodes.get(key) ?? this.open(key, p);
      const member: Member = {
        message: (m) => queue.offer(m),
        state: (s, m) => viewer.state(p.address, s, m),
        gap: (from, to, reason) => {
          tick();
          viewer.gap(p.address, from, to, reason);
        },
        notice: (m) => viewer.notice(p.address, m),
        end: (err) => {
          if (left) return;
          tick();
          leave();
          viewer.end(err);
        },
      };
      joined.push({ entry, member });
      entry.node.add(member, wanted(p));
      if (left) break; // refused at once (a node that could not be reached)
    }
    return leave;
  }

  /**
   * How many of our subscriber connections to `address` hold `name` now: what PUBSUB
   * NUMSUB counts of ours (one per connection id, however many viewers share it).
   */
  ours(address: string, kind: Extract<NameKind, 'channel' | 'shard'>, name: Buffer): number {
    let n = 0;
    for (const { node } of this.nodes.values()) if (node.address === address && node.holds(kind, name)) n++;
    return n;
  }

  /** Open subscriber connections and viewers, for tests and diagnostics. */
  counts(): { nodes: number; viewers: number } {
    return { nodes: this.nodes.size, viewers: this.viewers.size };
  }

  shutdown(): void {
    for (const [leave, viewer] of [...this.viewers]) {
      leave();
      viewer.end();
    }
    for (const entry of [...this.nodes.values()]) this.close(entry);
  }

  private open(key: string, p: NodePlan): NodeEntry {
    const entry: NodeEntry = { key, node: new SubscriberNode(p.address, p.open, this.o.keepBytes) };
    this.nodes.set(key, entry);
    entry.node.start();
    return entry;
  }

  private close(entry: NodeEntry): void {
    if (this.nodes.get(entry.key) !== entry) return;
    this.nodes.delete(entry.key);
    entry.node.stop();
  }
}

function wanted(p: NodePlan): WantedName[] {
  return [
    ...p.channels.map((name) => ({ kind: 'channel' as const, name })),
    ...p.patterns.map((name) => ({ kind: 'pattern' as const, name })),
    ...p.shardChannels.map(({ name }) => ({ kind: 'shard' as const, name })),
  ];
}
