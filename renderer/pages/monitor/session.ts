import type { Bridge, StreamHandlers } from '../../../app/bridge';
import type { MonitorEvent } from '../../../app/schemas/monitor';
import { isReplicaRole } from '../../lib/nodes';
import { describeFilter, type FilterInput } from './filterForm';
import { BUFFER_LINES, PaneFeed } from './paneFeed';
import { FrameNotifier, nextFrame, type Schedule } from '../../lib/frameNotifier';
import { frozen, type RowSource } from '../../lib/ring';
import type { Row } from './rows';
import { SearchView } from './searchView';
import { DelayWindow, WriteMatcher } from './writeMatcher';

export interface NodeRef {
  address: string;
  role: string;
}

/** What the page wants watched. Every pane of `nodes` exists; each is subscribed while `running`. */
export interface WatchPlan {
  profileId: string;
  nodes: readonly NodeRef[];
  filter: FilterInput;
  running: boolean;
  /** A new value subscribes every pane again: Start again, or the link came back. */
  generation: string;
}

export interface Pane {
  readonly address: string;
  role: string;
  readonly feed: PaneFeed;
  /** A replica's delay behind the watched master, for the same writes. */
  delays: DelayWindow | undefined;
  /** Subscribed (or ended by the server on this subscription). */
  key: string | undefined;
  live: boolean;
}

interface PaneState extends Pane {
  matcher: WriteMatcher | undefined;
  unsubscribe: (() => void) | undefined;
  search: SearchView;
  /** The rows as they were when the page paused. */
  paused: Row[] | undefined;
}

/**
 * The Monitor page's state outside React: one `monitor.watch` per pane, fed into
 * per-node PaneFeeds, and the master's writes paired with each replica's. Events
 * only mutate; listeners hear of them at most once per animation frame, so a
 * burst of batches costs one render, and React holds only `version`.
 */
export class MonitorSession {
  private readonly panes = new Map<string, PaneState>();
  private order: string[] = [];
  private readonly notifier: FrameNotifier;
  private disposed = false;
  paused = false;
  /** The plan's 1-in-N: above 1, no delay can be measured. */
  sampleEvery = 1;

  constructor(
    private readonly bridge: Pick<Bridge, 'subscribe'>,
    schedule: Schedule = nextFrame,
    /**
     * Renders at most this often. A node sends a batch every 50 ms; at thousands
     * of lines a second nobody reads the rows between two renders anyway, and
     * each render repaints the lists: ten a second keep the page live and cheap.
     */
    minGapMs = 100,
  ) {
    this.notifier = new FrameNotifier(schedule, minGapMs);
  }

  get version(): number {
    return this.notifier.version;
  }

  readonly listen = (listener: () => void): (() => void) => this.notifier.listen(listener);

  readonly getVersion = (): number => this.notifier.version;

  list(): Pane[] {
    return this.order.flatMap((a) => this.panes.get(a) ?? []);
  }

  sync(plan: WatchPlan): void {
    this.disposed = false;
    this.sampleEvery = plan.filter.sampleEvery ?? 1;
    let restarted = false;
    for (const n of plan.nodes) {
      const p = this.panes.get(n.address) ?? this.create(n);
      p.role = n.role;
      const key = plan.running ? JSON.stringify([plan.profileId, n.address, plan.filter, plan.generation]) : undefined;
      if (key === p.key) continue;
      restarted = true;
      this.unsubscribe(p);
      p.key = key;
      if (key !== undefined) this.subscribe(p, key, plan);
    }
    const wanted = new Set(plan.nodes.map((n) => n.address));
    for (const [address, p] of this.panes) {
      if (wanted.has(address)) continue;
      this.unsubscribe(p);
      this.panes.delete(address);
      restarted = true;
    }
    this.order = plan.nodes.map((n) => n.address);
    if (restarted) this.pairAnew();
    this.changed();
  }

  /** The rows a pane's list shows: the paused copy or the live buffer, narrowed by the search. */
  view(pane: Pane, query: string): RowSource<Row> {
    const p = pane as PaneState;
    return p.search.view(p.paused === undefined ? p.feed.rows : frozen(p.paused), query);
  }

  /** Everything a pane holds (the paused copy while paused), for export. */
  rows(pane: Pane): Row[] {
    const p = pane as PaneState;
    return p.paused ?? p.feed.rows.toArray();
  }

  /** Freeze what the lists show; lines keep arriving into the buffers and the counters keep counting. */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    for (const p of this.panes.values()) p.paused = p.feed.rows.toArray();
    this.changed();
  }

  resume(): void {
    this.paused = false;
    for (const p of this.panes.values()) p.paused = undefined;
    this.changed();
  }

  clear(): void {
    for (const p of this.panes.values()) {
      p.feed.clear();
      if (p.paused !== undefined) p.paused = [];
    }
    this.changed();
  }

  /** Unsubscribe everything; a later sync subscribes again (React may mount twice). */
  dispose(): void {
    this.disposed = true;
    for (const p of this.panes.values()) {
      this.unsubscribe(p);
      p.key = undefined;
    }
  }

  private create(n: NodeRef): PaneState {
    const p: PaneState = {
      address: n.address,
      role: n.role,
      feed: new PaneFeed(),
      delays: undefined,
      key: undefined,
      live: false,
      matcher: undefined,
      unsubscribe: undefined,
      search: new SearchView(BUFFER_LINES),
      paused: this.paused ? [] : undefined,
    };
    this.panes.set(n.address, p);
    return p;
  }

  private subscribe(p: PaneState, key: string, plan: WatchPlan): void {
    p.feed.restart(`— watching again · ${describeFilter(plan.filter)} —`);
    p.live = true;
    const handlers: StreamHandlers<MonitorEvent> = {
      onEvents: (events, dropped) => {
        if (p.key !== key) return;
        p.feed.transportDropped = dropped;
        for (const ev of events) this.pair(p, ev);
        this.changed();
      },
      onEnd: (error) => {
        if (p.key !== key) return;
        p.live = false;
        p.unsubscribe = undefined;
        p.feed.error = error;
        p.feed.state = 'stopped';
        this.changed();
      },
    };
    p.unsubscribe = this.bridge.subscribe('monitor.watch', { profileId: plan.profileId, address: p.address, filter: plan.filter }, handlers);
  }

  private unsubscribe(p: PaneState): void {
    p.unsubscribe?.();
    p.unsubscribe = undefined;
    if (p.live) p.feed.state = 'stopped';
    p.live = false;
  }

  private master(): PaneState | undefined {
    for (const a of this.order) {
      const p = this.panes.get(a);
      if (p !== undefined && !isReplicaRole(p.role)) return p;
    }
    return undefined;
  }

  /** Fold one event into its pane and pair the writes it brought. */
  private pair(p: PaneState, ev: MonitorEvent): void {
    const droppedBefore = p.feed.counters?.dropped ?? 0;
    const transportBefore = p.feed.transportDropped;
    const lines = p.feed.apply(ev);
    const master = this.master();
    if (master === undefined) return;
    const replicas = p === master ? [...this.panes.values()].filter((r) => r.matcher !== undefined) : [p];
    // Lines lost on this side (a lagging viewer, a Redis restart): the two streams no longer line up.
    const lost = ev.kind === 'gap' || (p.feed.counters?.dropped ?? 0) > droppedBefore || p.feed.transportDropped > transportBefore;
    if (lost) for (const r of replicas) r.matcher?.resync();
    if (p === master && ev.kind === 'stats') {
      for (const r of replicas) if (r.matcher !== undefined) for (const d of r.matcher.masterHeartbeat()) r.delays?.push(d);
    }
    if (lines.length === 0) return;
    const side = p === master ? 'master' : 'replica';
    for (const r of replicas) {
      if (r.matcher === undefined || r.delays === undefined) continue;
      for (const line of lines) for (const d of r.matcher.add(side, line)) r.delays.push(d);
    }
  }

  /**
   * New subscriptions pair from scratch: old pending writes would pair with nothing.
   * With 1 line in N kept, each node keeps different writes: nothing can be paired.
   */
  private pairAnew(): void {
    const master = this.master();
    for (const p of this.panes.values()) {
      const pairs = master !== undefined && isReplicaRole(p.role) && this.sampleEvery === 1;
      p.matcher = pairs ? new WriteMatcher() : undefined;
      p.delays = pairs ? new DelayWindow() : undefined;
    }
  }

  private changed(): void {
    if (!this.disposed) this.notifier.changed();
  }
}
