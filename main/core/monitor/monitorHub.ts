import type { AppError } from '../../../app/errors';
import { ViewerQueue } from '../live/viewerQueue';
import type { RawConnection } from '../resp/rawConnection';
import { HotCounter } from './hotCounter';
import { compileFilter, type LinePredicate, type MonitorFilter } from './monitorFilter';
import { keyOf, type MonitorEntry } from './monitorLine';
import { MonitorSource, type SourceState } from './monitorSource';
import { ownClients } from './ownClients';

/** One node MONITOR can be opened on. */
export interface MonitorTarget {
  /** "host:port" of the node. */
  address: string;
  /** A fresh raw connection, authenticated and named (see OWN_NAME_PREFIX). */
  open(): Promise<RawConnection>;
  /** CLIENT LIST of the node, read over an ordinary (non-MONITOR) connection. */
  clientList(): Promise<string>;
}

/**
 * A viewer's counts, all since it joined and all read at one moment (the tick), so that
 * they add up in every batch: received = unparsed + filteredOut + matched, and
 * matched = delivered + dropped (nothing is held once a tick has run).
 */
export interface LinesBatch {
  lines: MonitorEntry[];
  /** Lines the node sent on the MONITOR connection since this viewer joined, all of them. */
  received: number;
  /** Of those, lines that did not parse (counted, never shown). */
  unparsed: number;
  /** Of those, parsed lines this viewer's filter (or its 1 in N) left out. */
  filteredOut: number;
  /** Of those, lines this viewer's filter kept. */
  matched: number;
  /** Of those, sent to it. */
  delivered: number;
  /** Of those, dropped because it could not keep up. */
  dropped: number;
}

export interface NodeStats {
  at: number;
  address: string;
  /** Lines the node sent in the last second, all of them (before any filter). */
  linesPerSec: number;
  /** Lines since the MONITOR connection opened. */
  received: number;
  unparsed: number;
  topCommands: { name: string; count: number }[];
  /** Approximate beyond the heaviest keys (see HotCounter). */
  topKeys: { name: string; count: number }[];
  /** Redis-side output buffer of the MONITOR client (CLIENT LIST omem), bytes; undefined until read. */
  omem: number | undefined;
}

export interface Viewer {
  lines(batch: LinesBatch): void;
  stats(s: NodeStats): void;
  state(state: SourceState, message?: string): void;
  gap(from: number, to: number, reason: string): void;
  /** The stream ends: an error, or the session limit. */
  end(err?: AppError, message?: string): void;
  /** The transport still holds earlier batches: this tick's lines are dropped and counted instead. */
  congested(): boolean;
}

export interface MonitorHubOptions {
  resolve(profileId: string, address?: string): Promise<MonitorTarget>;
  /** 50 ms: at most 20 batches a second per viewer. */
  tickMs?: number;
  statsMs?: number;
  /** Most lines one viewer gets per tick; the rest are dropped and counted. */
  maxLinesPerTick?: number;
  /** A viewer's stream ends after this long: MONITOR roughly halves a server's throughput. */
  sessionLimitMs?: number;
  /** How often CLIENT LIST is read, for our own connections and the MONITOR client's omem. */
  clientListMs?: number;
}

interface ViewerState {
  viewer: Viewer;
  keep: LinePredicate;
  sampleEvery: number;
  seen: number;
  queue: ViewerQueue<MonitorEntry>;
  /** The source's counts when this viewer joined: its own counts are the increase since. */
  receivedAtJoin: number;
  unparsedAtJoin: number;
  filteredOut: number;
  /** `received` as the last batch told it: a tick with only left-out lines still sends the counts. */
  reportedReceived: number;
  limitTimer: ReturnType<typeof setTimeout> | undefined;
}

interface NodeEntry {
  key: string;
  target: MonitorTarget;
  source: MonitorSource;
  viewers: Set<ViewerState>;
  commands: HotCounter;
  keys: HotCounter;
  windowLines: number;
  own: ReadonlySet<string>;
  omem: number | undefined;
  timers: ReturnType<typeof setInterval>[];
}

export const OWN_NAME_PREFIX = 'cacheboard:';
const DEFAULTS = { tickMs: 50, statsMs: 1000, maxLinesPerTick: 1000, sessionLimitMs: 10 * 60_000, clientListMs: 2000 };

/**
 * One MONITOR connection per node, shared by every viewer of that node: opened
 * with the first, closed with the last. Lines are filtered per viewer on the
 * Node side and handed over in ticks of at most `maxLinesPerTick` (ViewerQueue);
 * a viewer that cannot keep up loses lines, counted exactly, and never holds more
 * than one tick's worth of memory.
 */
export class MonitorHub {
  private readonly nodes = new Map<string, NodeEntry>();
  private readonly o: Required<Omit<MonitorHubOptions, 'resolve'>>;

  constructor(private readonly opts: MonitorHubOptions) {
    this.o = { ...DEFAULTS, ...stripUndefined(opts) };
  }

  /** Start watching; the returned function stops (idempotent). */
  async watch(profileId: string, address: string | undefined, filter: MonitorFilter, viewer: Viewer): Promise<() => void> {
    const target = await this.opts.resolve(profileId, address);
    const key = `${profileId}|${target.address}`;
    const node = this.nodes.get(key) ?? this.openNode(key, target);
    const v: ViewerState = {
      viewer,
      keep: compileFilter(filter),
      sampleEvery: Math.max(1, filter.sampleEvery),
      seen: 0,
      queue: new ViewerQueue({ maxItems: this.o.maxLinesPerTick }),
      receivedAtJoin: node.source.received,
      unparsedAtJoin: node.source.unparsed,
      filteredOut: 0,
      reportedReceived: 0,
      limitTimer: undefined,
    };
    node.viewers.add(v);
    viewer.state(node.source.state);
    const minutes = Math.round(this.o.sessionLimitMs / 60_000);
    v.limitTimer = setTimeout(() => {
      this.flushViewer(v, node.source);
      viewer.end(
        undefined,
        `MONITOR stopped after ${minutes} min to spare ${target.address}: it costs the server much of its throughput. Start again to go on.`,
      );
      leave();
    }, this.o.sessionLimitMs);
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      clearTimeout(v.limitTimer);
      v.queue.clear();
      node.viewers.delete(v);
      if (node.viewers.size === 0) this.closeNode(node);
    };
    return leave;
  }

  /** Viewers and open MONITOR connections, for tests and diagnostics. */
  counts(): { nodes: number; viewers: number } {
    let viewers = 0;
    for (const n of this.nodes.values()) viewers += n.viewers.size;
    return { nodes: this.nodes.size, viewers };
  }

  shutdown(): void {
    for (const node of [...this.nodes.values()]) {
      for (const v of node.viewers) {
        clearTimeout(v.limitTimer);
        v.viewer.end();
      }
      node.viewers.clear();
      this.closeNode(node);
    }
  }

  private openNode(key: string, target: MonitorTarget): NodeEntry {
    const node: NodeEntry = {
      key,
      target,
      source: undefined as unknown as MonitorSource,
      viewers: new Set(),
      commands: new HotCounter(500),
      keys: new HotCounter(2000),
      windowLines: 0,
      own: new Set(),
      omem: undefined,
      timers: [],
    };
    node.source = new MonitorSource(target.address, () => target.open(), {
      entry: (e) => this.onEntry(node, e),
      state: (s, m) => {
        for (const v of node.viewers) v.viewer.state(s, m);
      },
      gap: (from, to, reason) => {
        for (const v of node.viewers) {
          this.flushViewer(v, node.source);
          v.viewer.gap(from, to, reason);
        }
      },
      fatal: (err) => {
        for (const v of [...node.viewers]) {
          clearTimeout(v.limitTimer);
          v.viewer.end(err);
        }
        node.viewers.clear();
        this.closeNode(node);
      },
    });
    this.nodes.set(key, node);
    node.timers.push(
      setInterval(() => {
        for (const v of node.viewers) this.flushViewer(v, node.source);
      }, this.o.tickMs),
      setInterval(() => this.emitStats(node), this.o.statsMs),
      setInterval(() => void this.readClients(node), this.o.clientListMs),
    );
    void this.readClients(node);
    node.source.start();
    return node;
  }

  private closeNode(node: NodeEntry): void {
    if (this.nodes.get(node.key) !== node) return;
    this.nodes.delete(node.key);
    for (const t of node.timers) clearInterval(t);
    node.timers = [];
    node.source.stop();
  }

  private onEntry(node: NodeEntry, e: MonitorEntry): void {
    node.windowLines++;
    node.commands.add(e.command);
    const k = keyOf(e);
    if (k !== undefined) node.keys.add(k);
    for (const v of node.viewers) {
      if (!v.keep(e, node.own) || (v.sampleEvery > 1 && v.seen++ % v.sampleEvery !== 0)) v.filteredOut++;
      else v.queue.offer(e);
    }
  }

  /**
   * The tick. The source counts a line (received, then unparsed or handed to onEntry) in
   * the same synchronous step as each viewer files it, so reading both here, between two
   * socket reads, gives counts from one moment that add up exactly.
   */
  private flushViewer(v: ViewerState, source: MonitorSource): void {
    const received = source.received - v.receivedAtJoin;
    const b = v.queue.take(() => v.viewer.congested(), received !== v.reportedReceived);
    if (b === undefined) return;
    v.reportedReceived = received;
    v.viewer.lines({
      lines: b.items,
      received,
      unparsed: source.unparsed - v.unparsedAtJoin,
      filteredOut: v.filteredOut,
      matched: b.offered,
      delivered: b.delivered,
      dropped: b.dropped,
    });
  }

  private emitStats(node: NodeEntry): void {
    const s: NodeStats = {
      at: Date.now(),
      address: node.target.address,
      linesPerSec: Math.round((node.windowLines * 1000) / this.o.statsMs),
      received: node.source.received,
      unparsed: node.source.unparsed,
      topCommands: node.commands.top(10),
      topKeys: node.keys.top(20),
      omem: node.omem,
    };
    node.windowLines = 0;
    for (const v of node.viewers) v.viewer.stats(s);
  }

  private async readClients(node: NodeEntry): Promise<void> {
    try {
      const list = await node.target.clientList();
      const r = ownClients(list, OWN_NAME_PREFIX, node.source.clientId);
      node.own = r.own;
      node.omem = r.monitorOmem;
    } catch {
      // CLIENT LIST may be denied by ACL: own traffic then shows, and omem is unknown.
    }
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && typeof v !== 'function')) as Partial<T>;
}
