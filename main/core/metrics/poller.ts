import type { Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import type { Alert, FailoverEvent, MetricsEvent, NodeHistory, NodeSample } from '../../../app/schemas/metrics';
import type { InfoSections } from '../info/parseInfo';
import type { PoolApi } from '../pool/types';
import { refusals } from '../pool/commandSupport';
import type { AlertThresholds } from './alertRules';
import { AlertEngine } from './alerts';
import type { NodeCounters } from './counters';
import { deriveSample, failedSample } from './derive';
import { MAX_NODES } from './discovery';
import { HistoryRing, historyCapacity, historyPoint } from './history';
import { describeError, fetchInfo, pollClient, withTimeout, type NodePoll } from './nodeInfo';
import { discoverProfile, type ProfileDiscovery } from './profileDiscovery';
import { ProfileFactsTracker } from './profileFacts';
import { joinReplicaLinks } from './replicaLinks';
import { mergeTopology } from './topologyMerge';
import type { TopologyEntry } from './types';

/** Re-run discovery every this many polls even when nothing looked different. */
export const REDISCOVER_EVERY = 10;

export interface PollerOptions {
  connectionId: string;
  pool: PoolApi;
  intervalMs: number;
  thresholds: AlertThresholds;
  historySeconds: number;
  emit(e: MetricsEvent): void;
  maxNodes?: number;
  /** Quiet time before rejected_connections / evictions alerts resolve. */
  alertQuietMs?: number;
}

type PollResult = ({ ok: true } & NodePoll) | { ok: false; error: string; status: 'slow' | 'unreachable' };

/**
 * How long one node may take to answer a poll: about one interval, so a hung
 * node is marked down by the next tick, but never under 500 ms (a busy server
 * answering INFO in tens of ms is not down) nor over 2 s.
 */
export function pollTimeoutMs(intervalMs: number): number {
  return Math.min(Math.max(intervalMs, 500), 2_000);
}

/** What decides the tree: a change here triggers discovery at once (a slow node has not changed: see structureChanged). */
function structureOf(s: NodeSample): string {
  if (!s.up) return 'down';
  const r = s.replication;
  const replicas = (r?.replicas ?? []).map((x) => x.address).sort();
  return `${s.role ?? ''}|${r?.masterAddress ?? ''}|${replicas.join(',')}`;
}

/**
 * Polls every node of one profile's replication tree with INFO ALL, in
 * parallel, on a setTimeout chain: a tick starts only after the previous one
 * ended, so a slow node delays (skips) beats instead of piling up polls. A node
 * whose previous INFO is still unanswered is not asked again. A poll without an
 * answer says why: slow (the connection is open, the answer late: a busy or
 * paused server) or unreachable (refused, closed); a node answering with a new
 * run_id has restarted. Keeps per-node history rings and the profile's alerts.
 */
export class ProfilePoller {
  private readonly nodes = new Map<string, TopologyEntry>();
  private readonly rings = new Map<string, HistoryRing>();
  private readonly counters = new Map<string, NodeCounters>();
  private readonly structure = new Map<string, string>();
  private readonly aliases = new Map<string, string>();
  private readonly inflight = new Set<string>();
  /** The connection each node's current poll went out on: still 'ready' while no answer comes means slow, not down. */
  private readonly links = new Map<string, Redis>();
  /** Each node's run_id at its last answer; kept while unwatched, so a restart meanwhile shows at the next poll. */
  private readonly runIds = new Map<string, string>();
  private readonly engine: AlertEngine;
  private readonly facts: ProfileFactsTracker;
  private intervalMs: number;
  private topologyEvent: Extract<MetricsEvent, { kind: 'topology' }> | undefined;
  private topologyKey = '';
  private ticks = 0;
  private discoverNext = true;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastStart = 0;
  private stopped = true;
  private stoppedAt: number | undefined;

  constructor(private readonly opts: PollerOptions) {
    this.intervalMs = opts.intervalMs;
    this.engine = new AlertEngine({
      thresholds: opts.thresholds,
      ...(opts.alertQuietMs === undefined ? {} : { quietMs: opts.alertQuietMs }),
    });
    this.facts = new ProfileFactsTracker(
      opts.pool,
      opts.connectionId,
      (e) => opts.emit(e),
      () => (this.discoverNext = true),
    );
  }

  get interval(): number {
    return this.intervalMs;
  }

  /** Whether a tick is scheduled or running. */
  get active(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.facts.start();
    if (this.stoppedAt !== undefined) {
      // Nobody polled meanwhile: mark the gap, take no rates across it, and look at the tree afresh.
      for (const ring of this.rings.values()) ring.pushGap(this.stoppedAt);
      this.counters.clear();
      this.discoverNext = true;
      this.stoppedAt = undefined;
    }
    if (this.running === undefined && this.timer === undefined) this.schedule(0);
  }

  /** Stops scheduling; resolves when a tick in progress has finished. History and alerts are kept. */
  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.stoppedAt = Date.now();
      this.facts.stop();
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    return this.running ?? Promise.resolve();
  }

  configure(intervalMs: number, thresholds: AlertThresholds): void {
    this.engine.setThresholds(thresholds);
    if (intervalMs === this.intervalMs) return;
    this.intervalMs = intervalMs;
    const capacity = historyCapacity(this.opts.historySeconds, intervalMs);
    for (const [address, ring] of this.rings) this.rings.set(address, ring.resized(capacity));
    if (this.timer !== undefined) {
      // A waiting beat of the old interval would hold a faster watcher back.
      clearTimeout(this.timer);
      this.schedule(Math.max(0, this.lastStart + intervalMs - Date.now()));
    }
  }

  history(): NodeHistory[] {
    return [...this.nodes.keys()].flatMap((a) => this.rings.get(a)?.toNodeHistory() ?? []);
  }

  /** The last topology sent, or undefined before the first discovery finished. */
  topology(): Extract<MetricsEvent, { kind: 'topology' }> | undefined {
    return this.topologyEvent;
  }

  /** Recent failovers, oldest first (bounded). */
  failovers(): FailoverEvent[] {
    return this.facts.failovers();
  }

  activeAlerts(): Alert[] {
    return this.engine.active();
  }

  hasNode(address: string): boolean {
    return this.nodes.has(this.aliases.get(address) ?? address);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const started = Date.now();
      this.lastStart = started;
      this.running = this.tick(started)
        .catch(() => {
          // A tick must never end the chain; each node's failure is already reported in its sample.
        })
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.schedule(Math.max(0, started + this.intervalMs - Date.now()));
        });
    }, delayMs);
    // Polling must never keep the process alive on its own.
    this.timer.unref();
  }

  private async tick(at: number): Promise<void> {
    if (this.discoverNext) {
      this.discoverNext = false;
      await this.rediscover(new Map());
    }
    const addresses = [...this.nodes.keys()];
    const results = await Promise.all(addresses.map((a) => this.poll(a)));
    const seen = new Map<string, InfoSections | Error>();
    const clusterViews = new Map<string, Record<string, string>>();
    const derived = addresses.map((address, i): NodeSample => {
      const r = results[i] ?? { ok: false, error: 'not polled', status: 'unreachable' };
      if (!r.ok) {
        seen.set(address, new Error(r.error));
        refusals.note(this.opts.connectionId, r.error, ['INFO']);
        return failedSample(address, at, r.error, r.status);
      }
      seen.set(address, r.sections);
      if (r.cluster !== undefined) clusterViews.set(address, r.cluster);
      const d = deriveSample(address, at, r.sections, this.counters.get(address));
      this.counters.set(address, d.counters);
      return this.runOf(d.sample, d.counters.runId);
    });
    const samples = joinReplicaLinks(derived, (a) => this.aliases.get(a) ?? a);
    this.ticks += 1;
    if (this.structureChanged(samples) || this.ticks % REDISCOVER_EVERY === 0) await this.rediscover(seen);
    this.applySamples(samples);
    this.record(samples);
    const facts = this.facts.tick(at, samples, clusterViews);
    const changes = this.engine.evaluate(at, samples, [...this.nodes.values()], facts);
    this.publishTopology(at);
    this.opts.emit({ kind: 'samples', samples, at });
    for (const alert of changes) this.opts.emit({ kind: 'alert', alert });
  }

  /** Marks the first answer of a new server run (run_id changed since the last answer). */
  private runOf(sample: NodeSample, runId: string): NodeSample {
    const before = this.runIds.get(sample.address);
    this.runIds.set(sample.address, runId);
    return before !== undefined && runId !== '' && before !== runId ? { ...sample, restarted: true } : sample;
  }

  /** The poll's connection is up: a late answer then means a busy node, not a lost one. */
  private linkOpen(address: string): boolean {
    return this.links.get(address)?.status === 'ready';
  }

  private poll(address: string): Promise<PollResult> {
    const timeoutMs = pollTimeoutMs(this.intervalMs);
    if (this.inflight.has(address)) {
      const error = `no answer to the previous INFO yet (waited over ${timeoutMs} ms)`;
      return Promise.resolve({ ok: false, error, status: this.linkOpen(address) ? 'slow' : 'unreachable' });
    }
    this.inflight.add(address);
    this.links.delete(address);
    const info = this.opts.pool.node(this.opts.connectionId, address).then((redis) => {
      this.links.set(address, redis);
      return pollClient(redis, this.facts.mode === 'cluster');
    });
    const settle = (): void => {
      this.inflight.delete(address);
    };
    info.then(settle, settle);
    return withTimeout(info, timeoutMs, 'INFO ALL').then(
      (polled): PollResult => ({ ok: true, ...polled }),
      (err: unknown): PollResult => {
        // Only a timeout on an open connection is slowness: a refused or closed one fails at once.
        const slow = err instanceof AppError && err.code === 'TIMEOUT' && this.linkOpen(address);
        return { ok: false, error: describeError(err, address), status: slow ? 'slow' : 'unreachable' };
      },
    );
  }

  private structureChanged(samples: NodeSample[]): boolean {
    let changed = false;
    for (const s of samples) {
      // No answer yet, the connection open: nothing says the tree changed.
      if (s.status === 'slow') continue;
      const now = structureOf(s);
      const before = this.structure.get(s.address);
      if (before !== undefined && before !== now) changed = true;
      this.structure.set(s.address, now);
    }
    return changed;
  }

  /** Discover from the profile's own address, reusing this tick's INFO where a node was just polled. */
  private async rediscover(seen: Map<string, InfoSections | Error>): Promise<void> {
    const timeoutMs = pollTimeoutMs(this.intervalMs);
    const fetch = (address: string): Promise<InfoSections> => {
      const got = seen.get(address);
      if (got instanceof Error) return Promise.reject(got);
      if (got !== undefined) return Promise.resolve(got);
      return withTimeout(fetchInfo(this.opts.pool, this.opts.connectionId, address, 'default'), timeoutMs, 'INFO');
    };
    const maxNodes = this.opts.maxNodes ?? MAX_NODES;
    let d: ProfileDiscovery;
    try {
      d = await discoverProfile(this.opts.pool, this.opts.connectionId, fetch, { maxNodes });
    } catch (err) {
      // The profile was removed, or no seed / sentinel answered: keep what we had, try again next tick.
      this.facts.discoveryFailed(err);
      this.discoverNext = true;
      return;
    }
    this.facts.discovered(d);
    for (const [alias, address] of d.aliases) this.aliases.set(alias, address);
    const merged = mergeTopology(d.nodes, this.nodes, this.aliases, maxNodes);
    const keep = new Set(merged.map((n) => n.address));
    for (const address of this.nodes.keys()) if (!keep.has(address)) this.drop(address);
    this.nodes.clear();
    const capacity = historyCapacity(this.opts.historySeconds, this.intervalMs);
    for (const n of merged) {
      this.nodes.set(n.address, n);
      if (!this.rings.has(n.address)) this.rings.set(n.address, new HistoryRing(n.address, capacity));
    }
  }

  private drop(address: string): void {
    this.rings.delete(address);
    this.counters.delete(address);
    this.runIds.delete(address);
    this.links.delete(address);
    this.structure.delete(address);
    this.facts.forget(address);
    for (const alert of this.engine.forget(address, Date.now())) this.opts.emit({ kind: 'alert', alert });
  }

  /** A node's own answer is the truth about its role and master; a down node keeps the last one known. */
  private applySamples(samples: NodeSample[]): void {
    for (const s of samples) {
      const n = this.nodes.get(s.address);
      if (n === undefined) continue;
      // A slow node is there (its connection is open), as it last said: only an unreachable one is down.
      n.up = s.up || s.status === 'slow';
      if (!s.up) continue;
      n.role = s.role ?? n.role;
      const master = s.replication?.masterAddress;
      if (master === undefined) delete n.master;
      else n.master = master;
    }
  }

  private record(samples: NodeSample[]): void {
    const lagOf = new Map<string, number>();
    for (const s of samples) for (const r of s.replication?.replicas ?? []) lagOf.set(r.address, r.lagBytes);
    for (const s of samples) {
      const replica = s.replication?.role === 'replica';
      this.rings.get(s.address)?.push(historyPoint(s, replica ? (lagOf.get(s.address) ?? null) : null));
    }
  }

  private publishTopology(at: number): void {
    const nodes = [...this.nodes.values()].map((n) => ({ ...n }));
    const key = JSON.stringify({ nodes, extras: this.facts.extras() });
    if (key === this.topologyKey) return;
    this.topologyKey = key;
    this.topologyEvent = { kind: 'topology', nodes, at, ...this.facts.extras() };
    this.opts.emit(this.topologyEvent);
  }
}
