import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../../app/errors';
import type { NodeLinkState } from '../../../app/schemas/pubsub';
import { ViewerQueue, type ViewerBatch } from '../live/viewerQueue';
import type { RawConnection } from '../resp/rawConnection';
import { movedAwayText, namesText, SubscriberNode, type Member, type NameKind, type RawMessage, type WantedName } from './subscriberNode';

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

/** When re-planning: where channels and patterns are now (kept if still a master), and nodes that could not be reached. */
export interface PlanHint {
  keep?: string;
  avoid?: readonly string[];
}

export interface Counts {
  at: number;
  received: number;
  delivered: number;
  dropped: number;
}

export interface PubSubViewer {
  /** Where each name goes: told first, before any state or message, and again after a name moved to another node. */
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
  plan(connectionId: string, names: PubSubNames, hint?: PlanHint): Promise<NodePlan[]>;
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

interface Joined {
  entry: NodeEntry;
  member: Member;
}

/** A gap a viewer is owed once its names are live on their new node: nothing was heard from `address` since `from`. */
interface OwedGap {
  address: string;
  from: number;
  reason: string;
}

/** How often, and how far apart, a moved shard channel's new owner is asked for. */
const FOLLOW_TRIES = 20;
const FOLLOW_WAIT_MS = 250;
/** A name moved off a node that is still up: a shard channel's slot went elsewhere, or the node is no master now. */
const KIND_WORD: Record<NameKind, string> = { channel: 'Channel', pattern: 'Pattern', shard: 'Shard channel' };
const MOVED_BECAUSE: Record<NameKind, string> = { channel: 'no longer a master', pattern: 'no longer a master', shard: 'its slot was resharded' };

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

  /**
   * Subscribe; returns the function that stops (idempotent). On a cluster a name's node
   * can change under the viewer: a shard channel whose slot moved, or a master that is
   * gone (a reconnect failed). The viewer then re-plans, joins the new nodes before it
   * leaves the old ones (names that stay are never unsubscribed), and is told the new
   * plan; its queue stays, so its counts stay exact.
   */
  async watch(connectionId: string, names: PubSubNames, viewer: PubSubViewer): Promise<() => void> {
    let plan = await this.opts.plan(connectionId, names);
    viewer.plan(plan);
    const queue = new ViewerQueue<RawMessage>({ maxItems: this.o.maxPerTick, maxBytes: this.o.maxBytesPerTick }, weigh);
    let joined: Joined[] = [];
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
      this.drop(joined);
    };
    this.viewers.set(leave, viewer);
    /** The stream ends with what it was sent so far. */
    const finish = (err: AppError) => {
      if (left) return;
      tick();
      leave();
      viewer.end(err);
    };

    /** Join each planned node; `owed`: per address, the gap to report once its names are live there. */
    const join = (nodes: readonly NodePlan[], owed: ReadonlyMap<string, OwedGap>) => {
      for (const p of nodes) {
        const key = `${connectionId}|${p.address}`;
        const entry = this.nodes.get(key) ?? this.open(key, p);
        let gap = owed.get(p.address);
        const member: Member = {
          message: (m) => queue.offer(m),
          state: (s, m) => {
            viewer.state(p.address, s, m);
            if (s !== 'live' || gap === undefined) return;
            tick();
            viewer.gap(gap.address, gap.from, Date.now(), gap.reason);
            gap = undefined;
          },
          gap: (from, to, reason) => {
            tick();
            viewer.gap(p.address, from, to, reason);
          },
          notice: (m) => viewer.notice(p.address, m),
          end: finish,
          moved: (name) => follow(`moved|${p.address}|${name.toString('latin1')}`, () => followMoved(p.address, name)),
          lost: () => follow(`lost|${p.address}`, () => followLost(p.address)),
        };
        joined.push({ entry, member });
        entry.node.add(member, wanted(p));
        if (left) break; // refused at once (a node that could not be reached)
      }
    };
    join(plan, new Map());

    /** Move to `next` if it puts any name elsewhere: notices for shard channels that moved, gaps owed for a node that was down. */
    const apply = (next: NodePlan[]) => {
      const before = places(plan);
      const owed = new Map<string, OwedGap>();
      const notices: { address: string; text: string }[] = [];
      for (const [k, { address: to, kind, name }] of places(next)) {
        const from = before.get(k)?.address;
        if (from === undefined || from === to) continue;
        const down = this.nodes.get(`${connectionId}|${from}`)?.node.downSince;
        if (down === undefined) {
          notices.push({
            address: to,
            text: `${KIND_WORD[kind]} ${namesText([name])} moved from ${from} to ${to} (${MOVED_BECAUSE[kind]}): subscribed there.`,
          });
        } else if (down < (owed.get(to)?.from ?? Infinity)) {
          owed.set(to, { address: from, from: down, reason: `${from} could not be reached: subscribed on ${to} instead` });
        }
      }
      if (notices.length === 0 && owed.size === 0) return;
      plan = next;
      const old = joined;
      joined = [];
      viewer.plan(next);
      join(next, owed);
      for (const n of notices) viewer.notice(n.address, n.text);
      this.drop(old);
    };
    // Channels and patterns stay on their master while it is one: a cluster forwards them everywhere, so moving gains nothing.
    const hint = (avoid: string[]): PlanHint => {
      const keep = plan.find((p) => p.channels.length + p.patterns.length > 0)?.address;
      return keep === undefined ? { avoid } : { keep, avoid };
    };
    const followLost = async (address: string) => {
      // Channels and patterns go to another master; shard channels to their slot's owner now (the same while no replica took over).
      const next = await this.opts.plan(connectionId, names, hint([address])).catch(() => undefined);
      if (next !== undefined && !left) apply(next);
    };
    const followMoved = async (address: string, name: Buffer) => {
      const k = placeKey('shard', name);
      for (let i = 0; i < FOLLOW_TRIES && !left; i++) {
        if (places(plan).get(k)?.address !== address) return; // followed already
        // The node that dropped it may be told before the one the slot map is read from: asked again a little later.
        if (i > 0) await sleep(FOLLOW_WAIT_MS);
        const next = await this.opts.plan(connectionId, names, hint([])).catch(() => undefined);
        if (left) return;
        if (next !== undefined && places(next).get(k)?.address !== address) return apply(next);
      }
      if (!left) viewer.notice(address, movedAwayText(name, address));
    };
    // One re-plan at a time per viewer; a trigger already waiting is not queued twice.
    let chain = Promise.resolve();
    const waiting = new Set<string>();
    const follow = (key: string, run: () => Promise<void>) => {
      if (left || waiting.has(key)) return;
      waiting.add(key);
      chain = chain
        .then(() => {
          waiting.delete(key);
          return run();
        })
        // Not expected (plan errors are retried): the viewer is told rather than left on a node that is gone.
        .catch((err: unknown) =>
          finish(new AppError('INTERNAL', `Could not follow the subscription to another node: ${err instanceof Error ? err.message : String(err)}`)),
        );
    };
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

  /** Leave these nodes; a node left by its last member closes. */
  private drop(joined: readonly Joined[]): void {
    for (const { entry, member } of joined) {
      if (entry.node.remove(member) === 0) this.close(entry);
    }
  }

  private close(entry: NodeEntry): void {
    if (this.nodes.get(entry.key) !== entry) return;
    this.nodes.delete(entry.key);
    entry.node.stop();
  }
}

const placeKey = (kind: NameKind, name: Buffer) => `${kind}|${name.toString('latin1')}`;

/** Where each name of a plan is subscribed. */
function places(plan: readonly NodePlan[]): Map<string, { address: string; kind: NameKind; name: Buffer }> {
  const out = new Map<string, { address: string; kind: NameKind; name: Buffer }>();
  for (const p of plan) for (const w of wanted(p)) out.set(placeKey(w.kind, w.name), { address: p.address, ...w });
  return out;
}

function wanted(p: NodePlan): WantedName[] {
  return [
    ...p.channels.map((name) => ({ kind: 'channel' as const, name })),
    ...p.patterns.map((name) => ({ kind: 'pattern' as const, name })),
    ...p.shardChannels.map(({ name }) => ({ kind: 'shard' as const, name })),
  ];
}
