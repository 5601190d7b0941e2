import type { Alert, MetricsEvent } from '../../../app/schemas/metrics';
import { AppError } from '../../../app/errors';
import { toAppErrorFor } from '../pool/redisErrors';
import type { PoolApi } from '../pool/types';
import { DEFAULT_THRESHOLDS, type AlertThresholds } from './alertRules';
import { MAX_NODES } from './discovery';
import { DEFAULT_HISTORY_SECONDS } from './history';
import { KnownNodes, withKnownNodes } from './knownNodes';
import { fetchInfo, withTimeout } from './nodeInfo';
import { runOpsAction } from './opsAction';
import { LatencyMonitor } from './latencyMonitor';
import { ACTION_COMMAND, actionRestriction, actionRestrictions } from './actionSupport';
import { refusals } from '../pool/commandSupport';
import { ProfilePoller, pollTimeoutMs } from './poller';
import { discoverProfile } from './profileDiscovery';
import type { Commandlogs } from '../../../app/schemas/metrics';
import { readCommandlogs } from './commandlog';
import { readLatency, readSlowlog, type LatencyRecord } from './slowlog';
import { unlessRefused, type Refusal } from '../redis/refusal';
import type { Restriction } from '../../../app/schemas/restrictions';
import type { OpsAction, OpsActionRecord, OpsActionRefusal, SlowlogRecord, TopologyEntry, WatchOptions } from './types';

export type { WatchOptions } from './types';

/** A poller's history outlives its last watcher this long, so a page reload finds it again. */
export const DEFAULT_GRACE_MS = 5 * 60_000;
/** An alerts-only subscriber polls at this pace with the default thresholds. */
export const DEFAULT_INTERVAL_MS = 1_000;
export const MAX_ACTIONS = 20;

/** Recording history while nobody watches (`cacheboard serve`): which profiles, and when to stop. */
export interface RecordOptions {
  /** The profiles to record: every profile that can connect. Read again every `syncMs`. */
  profiles(): string[];
  /** Stop recording a profile nobody has watched for this long; undefined: record while the process runs. */
  idleMs?: number | undefined;
  /** How often the list of profiles and their idle times are looked at again. */
  syncMs?: number;
}

/** How often recording looks at the profiles again: a profile added on the Connections page is recorded within this. */
export const DEFAULT_RECORD_SYNC_MS = 2_000;

export interface MetricsHubOptions {
  pool: PoolApi;
  historySeconds?: number;
  graceMs?: number;
  /** Quiet time before rejected_connections / evictions alerts resolve. */
  alertQuietMs?: number;
  /** Poll every active profile even with nobody watching, so its history is there when a page opens. */
  record?: RecordOptions;
  /** One minute of a latency-monitor turn-on's duration; tests make it short. */
  latencyMinuteMs?: number;
}

interface Watcher {
  opts: WatchOptions;
  listener: (e: MetricsEvent) => void;
}

interface ProfileMetrics {
  poller: ProfilePoller;
  watchers: Set<Watcher>;
  alertListeners: Set<(a: Alert) => void>;
  grace: NodeJS.Timeout | undefined;
  /** Polled for the record, with or without watchers. */
  recording: boolean;
}

/** A subscriber that throws must not break polling or the other subscribers. */
function deliver<T>(listener: (v: T) => void, value: T): void {
  try {
    listener(value);
  } catch {
    // ignored on purpose
  }
}

/**
 * Live metrics per profile: one poller per profile, shared by every watcher
 * (polling at the smallest interval any of them asked for, alerting at the
 * most sensitive thresholds), started by the first and stopped when the last
 * leaves. Also SLOWLOG/LATENCY reads and timed BGSAVE/BGREWRITEAOF.
 */
export class MetricsHub {
  private readonly pool: PoolApi;
  private readonly historySeconds: number;
  private readonly graceMs: number;
  private readonly profiles = new Map<string, ProfileMetrics>();
  private readonly actionLog = new Map<string, OpsActionRecord[]>();
  private readonly runningActions = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();
  /** Nodes the profiles' servers reported before: still listed (and watchable) while the server that reports them is down. */
  private readonly known = new KnownNodes();
  private closed = false;
  /** latency-monitor-threshold turned on for a while, and the timers that put it back. */
  readonly latency: LatencyMonitor;

  private recordTimer: NodeJS.Timeout | undefined;
  /** Per profile, when someone last watched it (or recording first saw it): what the idle limit counts from. */
  private readonly lastWatched = new Map<string, number>();

  constructor(private readonly opts: MetricsHubOptions) {
    this.pool = opts.pool;
    this.historySeconds = opts.historySeconds ?? DEFAULT_HISTORY_SECONDS;
    this.graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
    this.latency = new LatencyMonitor(this.pool, opts.latencyMinuteMs);
    if (opts.record !== undefined) {
      const every = opts.record.syncMs ?? DEFAULT_RECORD_SYNC_MS;
      this.syncRecording();
      this.recordTimer = setInterval(() => this.syncRecording(), every);
      // Recording must never keep the process alive on its own.
      this.recordTimer.unref();
    }
  }

  /**
   * Record every listed profile that has been watched within the idle limit; stop the
   * others (their pollers stop once nobody watches either, keeping the history they have).
   */
  private syncRecording(): void {
    const rec = this.opts.record;
    if (rec === undefined || this.closed) return;
    let ids: string[];
    try {
      ids = rec.profiles();
    } catch {
      return; // the profile store could not be read: look again next time
    }
    const now = Date.now();
    const listed = new Set(ids);
    for (const id of ids) {
      const known = this.profiles.get(id);
      if (known !== undefined && known.watchers.size + known.alertListeners.size > 0) this.lastWatched.set(id, now);
      // A profile first seen now counts as just watched: it is recorded for the idle limit at least.
      const since = this.lastWatched.get(id) ?? now;
      this.lastWatched.set(id, since);
      const wanted = rec.idleMs === undefined || now - since < rec.idleMs;
      if (known === undefined && !wanted) continue;
      let p: ProfileMetrics;
      try {
        p = known ?? this.profile(id);
      } catch {
        continue; // removed between the list and now
      }
      if (p.recording !== wanted) {
        p.recording = wanted;
        this.reconfigure(id, p);
      }
    }
    for (const [id, p] of this.profiles) {
      if (p.recording && !listed.has(id)) {
        p.recording = false;
        this.reconfigure(id, p);
      }
    }
    for (const id of this.lastWatched.keys()) if (!listed.has(id)) this.lastWatched.delete(id);
  }

  /**
   * Subscribe to a profile's metrics: history of every node first, then the
   * current topology and active alerts, then live topology/samples/alert events.
   * Returns the unsubscribe function (idempotent).
   */
  watch(connectionId: string, opts: WatchOptions, listener: (e: MetricsEvent) => void): () => void {
    const p = this.profile(connectionId);
    const watcher: Watcher = { opts: { ...opts }, listener };
    p.watchers.add(watcher);
    // Started first: a poller that was stopped marks the stretch nobody recorded, and the history sent says so.
    // Its first tick is a timer away, so nothing reaches the listener before the history.
    this.reconfigure(connectionId, p);
    deliver(listener, { kind: 'history', nodes: p.poller.history() });
    const topology = p.poller.topology();
    if (topology !== undefined) deliver(listener, topology);
    for (const failover of p.poller.failovers()) deliver(listener, { kind: 'failover', failover });
    for (const alert of p.poller.activeAlerts()) deliver(listener, { kind: 'alert', alert });
    return () => {
      if (p.watchers.delete(watcher)) {
        this.lastWatched.set(connectionId, Date.now());
        this.reconfigure(connectionId, p);
      }
    };
  }

  /** Alerts of a profile: the active ones first, then every raise and resolve. Keeps the profile polled. */
  alerts(connectionId: string, listener: (a: Alert) => void): () => void {
    const p = this.profile(connectionId);
    p.alertListeners.add(listener);
    for (const alert of p.poller.activeAlerts()) deliver(listener, alert);
    this.reconfigure(connectionId, p);
    return () => {
      if (p.alertListeners.delete(listener)) this.reconfigure(connectionId, p);
    };
  }

  /** SLOWLOG GET and LATENCY LATEST of one node of the profile (default: the profile's own), and COMMANDLOG where it has one. */
  async slowlog(
    connectionId: string,
    address: string | undefined,
    count: number,
  ): Promise<{ slowlog: SlowlogRecord[]; latency: LatencyRecord[]; commandlog?: Commandlogs; restrictions?: Restriction[] }> {
    this.assertOpen();
    const target = await this.nodeOf(connectionId, address);
    const redis = await this.pool.node(connectionId, target);
    // A managed service or an ACL user without @admin may refuse either: the other is still shown.
    const restrictions: Restriction[] = [];
    const refused = (effect: string) => (r: Refusal) => restrictions.push({ command: r.command, effect });
    try {
      const [slowlog, latency, commandlog] = await Promise.all([
        unlessRefused(readSlowlog(redis, count), ['SLOWLOG', 'GET'], refused('the slow log is not shown')),
        unlessRefused(readLatency(redis), ['LATENCY', 'LATEST'], refused('latency events are not shown')),
        readCommandlogs(redis, count),
      ]);
      return {
        slowlog: slowlog ?? [],
        latency: latency ?? [],
        ...(commandlog === undefined ? {} : { commandlog }),
        ...(restrictions.length === 0 ? {} : { restrictions }),
      };
    } catch (err) {
      throw toAppErrorFor(redis, err);
    }
  }

  /**
   * The profile's data nodes, discovered now (one INFO per node): a replication tree, a cluster, a sentinel set,
   * and every node known before that this discovery did not reach (a master's replicas while it is down).
   */
  async nodes(connectionId: string): Promise<{ address: string; role: string; up: boolean; master?: string }[]> {
    this.assertOpen();
    const d = await this.discover(connectionId);
    return d.nodes.map((n) => ({ address: n.address, role: n.role, up: n.up, ...(n.master === undefined ? {} : { master: n.master }) }));
  }

  /**
   * BGSAVE or BGREWRITEAOF on one node, on a dedicated connection, timed until the fork child is done.
   * Refused (asked first, or met at run time and then remembered for the profile): the refusal, not an error.
   */
  async runAction(connectionId: string, address: string, action: OpsAction): Promise<OpsActionRecord | OpsActionRefusal> {
    this.assertOpen();
    const target = await this.nodeOf(connectionId, address);
    const [known] = await actionRestrictions(await this.pool.node(connectionId, target), connectionId, action);
    if (known !== undefined) return { action, address: target, refused: known };
    const conn = await this.pool.dedicated(connectionId, { purpose: 'blocking', address: target });
    const run = runOpsAction(conn.redis, target, action, { signal: this.abort.signal }).finally(() => conn.release());
    this.runningActions.add(run);
    try {
      const result = await run;
      // Newest start first: two actions that overlapped can finish in either order.
      const log = [result, ...(this.actionLog.get(connectionId) ?? [])].sort((x, y) => y.startedAt - x.startedAt).slice(0, MAX_ACTIONS);
      this.actionLog.set(connectionId, log);
      return result;
    } catch (err) {
      const refused = refusals.note(connectionId, err, [ACTION_COMMAND[action]]);
      if (refused !== undefined) return { action, address: target, refused: actionRestriction(action, refused.command) };
      throw err;
    } finally {
      this.runningActions.delete(run);
    }
  }

  /** The profile's recent actions, newest first. */
  actions(connectionId: string): OpsActionRecord[] {
    return [...(this.actionLog.get(connectionId) ?? [])];
  }

  /** The actions one node of the profile (default: its own) may not run, as the page's lines. */
  async actionRestrictions(connectionId: string, address: string | undefined): Promise<Restriction[]> {
    this.assertOpen();
    const target = await this.nodeOf(connectionId, address);
    return actionRestrictions(await this.pool.node(connectionId, target), connectionId);
  }

  /** Stop every poller and timer, stop waiting on actions; resolves when nothing of ours runs any more. */
  async shutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.recordTimer);
    this.latency.shutdown();
    this.abort.abort();
    const stopping: Promise<unknown>[] = [...this.runningActions].map((r) => r.catch(() => undefined));
    for (const p of this.profiles.values()) {
      clearTimeout(p.grace);
      p.watchers.clear();
      p.alertListeners.clear();
      stopping.push(p.poller.stop());
    }
    this.profiles.clear();
    await Promise.all(stopping);
  }

  private assertOpen(): void {
    if (this.closed) throw new AppError('INTERNAL', 'Metrics are shut down; the app is closing.');
  }

  private profile(connectionId: string): ProfileMetrics {
    this.assertOpen();
    this.pool.topology(connectionId); // NOT_FOUND for an unknown profile, before anything starts
    let p = this.profiles.get(connectionId);
    if (p === undefined) {
      const poller: ProfilePoller = new ProfilePoller({
        connectionId,
        pool: this.pool,
        intervalMs: DEFAULT_INTERVAL_MS,
        thresholds: DEFAULT_THRESHOLDS,
        historySeconds: this.historySeconds,
        ...(this.opts.alertQuietMs === undefined ? {} : { alertQuietMs: this.opts.alertQuietMs }),
        emit: (e) => this.fanOut(connectionId, e),
      });
      p = { poller, watchers: new Set(), alertListeners: new Set(), grace: undefined, recording: false };
      this.profiles.set(connectionId, p);
    }
    return p;
  }

  private fanOut(connectionId: string, e: MetricsEvent): void {
    const p = this.profiles.get(connectionId);
    if (p === undefined) return;
    for (const w of [...p.watchers]) deliver(w.listener, e);
    if (e.kind === 'alert') for (const l of [...p.alertListeners]) deliver(l, e.alert);
  }

  /** Poll at the fastest pace and alert at the most sensitive thresholds any watcher asked for. */
  private reconfigure(connectionId: string, p: ProfileMetrics): void {
    if (this.closed) return;
    if (p.watchers.size + p.alertListeners.size === 0 && !p.recording) {
      void p.poller.stop();
      clearTimeout(p.grace);
      p.grace = setTimeout(() => {
        if (this.profiles.get(connectionId) === p && p.watchers.size + p.alertListeners.size === 0 && !p.recording) {
          this.profiles.delete(connectionId);
        }
      }, this.graceMs);
      p.grace.unref();
      return;
    }
    clearTimeout(p.grace);
    p.grace = undefined;
    const all = [...p.watchers].map((w) => w.opts);
    const thresholds: AlertThresholds =
      all.length === 0
        ? DEFAULT_THRESHOLDS
        : {
            lagBytes: Math.min(...all.map((o) => o.lagBytesThreshold)),
            lagSeconds: Math.min(...all.map((o) => o.lagSecondsThreshold)),
            memoryPercent: DEFAULT_THRESHOLDS.memoryPercent,
          };
    const interval = all.length === 0 ? DEFAULT_INTERVAL_MS : Math.min(...all.map((o) => o.intervalMs));
    p.poller.configure(interval, thresholds);
    p.poller.start();
  }

  /**
   * The node an address names, checked against the profile's replication tree.
   * The address comes from an untrusted client and the connection would carry
   * the profile's password, so only the profile's own address and nodes its
   * servers report are accepted: never an arbitrary host.
   */
  async nodeOf(connectionId: string, address: string | undefined): Promise<string> {
    if (this.pool.topology(connectionId) === 'standalone') {
      const own = this.pool.address(connectionId);
      if (address === undefined || address === own) return own;
    }
    if (address !== undefined && this.profiles.get(connectionId)?.poller.hasNode(address) === true) return address;
    const d = await this.discover(connectionId);
    if (address === undefined) {
      // A cluster or sentinel profile has no node of its own: its (first) master stands for it.
      const master = d.nodes.find((n) => n.role === 'master' && n.up) ?? d.nodes[0];
      if (master !== undefined) return master.address;
      throw new AppError('UNREACHABLE', 'No node of this profile could be reached.');
    }
    const canonical = d.aliases.get(address) ?? address;
    if (d.nodes.some((n) => n.address === canonical)) return canonical;
    throw new AppError('NOT_FOUND', `${address} is not a node of this profile (as its servers list them now).`, 'address');
  }

  /** Discovery now, with the nodes the profile's servers (or its poller) reported before carried over and asked again. */
  private async discover(connectionId: string): Promise<{ nodes: TopologyEntry[]; aliases: Map<string, string> }> {
    const timeoutMs = pollTimeoutMs(DEFAULT_INTERVAL_MS);
    const fetch = (a: string): ReturnType<typeof fetchInfo> => withTimeout(fetchInfo(this.pool, connectionId, a, 'default'), timeoutMs, 'INFO');
    const d = await discoverProfile(this.pool, connectionId, fetch, { maxNodes: MAX_NODES });
    // An edited profile (another server) starts afresh: what its old servers reported is not its node.
    const root = d.mode === 'cluster' ? 'cluster' : this.pool.address(connectionId);
    const known = this.known.get(connectionId, root);
    for (const n of this.profiles.get(connectionId)?.poller.topology()?.nodes ?? []) if (!known.has(n.address)) known.set(n.address, n);
    const nodes = await withKnownNodes(d, known, fetch, MAX_NODES);
    this.known.set(connectionId, root, nodes);
    return { nodes, aliases: d.aliases };
  }
}
