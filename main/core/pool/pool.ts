import { Cluster, Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import { formatHostPort } from '../../../app/hostPort';
import { asCluster, asRedis, isCluster, pendingCommands, type Client } from './client';
import { closeRedis } from './closeRedis';
import { toClusterOptions } from './clusterOptions';
import { isUnreachable, seedTlsRefusal } from './clusterSeedTls';
import { ConnectError, connectReady } from './connectReady';
import { DEFAULTS, toRedisOptions, type ConnectionKind } from './connectionOptions';
import { aggregateState, type ConnPhase } from './profileState';
import { contextOf, mapRedisError, type ErrorContext } from './redisErrors';
import { otherNode } from './nodeAddress';
import { mastersNamed } from './sentinels';
import { prepareSsh, releaseOnEnd, viaFor, type Via } from './sshVia';
import { testConnection } from './testConnection';
import { entryPoints, refuseCluster, requireClusterProfile, topologyKind } from './topology';
import { mastersOf, nodesOf, type QueryClients } from './topologyQueries';
import type {
  ConnectionPurpose,
  ConnectionState,
  DedicatedOptions,
  MasterNode,
  PoolApi,
  ProfileSpec,
  StoredProfile,
  TestResult,
  TopologyKind,
  TopologyNode,
} from './types';

/** Kept here for the callers that import it from the pool (monitorTargets). */
export { specAtAddress } from './nodeAddress';

export interface PoolOptions {
  resolve(connectionId: string): StoredProfile | undefined;
  /** Every profile, so states() can report never-used ones as idle. */
  list?(): StoredProfile[];
  /** Shared and monitoring connections unused this long are closed. Default 5 min. */
  idleMs?: number;
  /** Command timeout of shared connections. Default 5 s. */
  commandTimeoutMs?: number;
  /** Monitoring connections' command timeout. Default 2 s. */
  monitoringCommandTimeoutMs?: number;
  /** How long the first connect may take before it fails with TIMEOUT. Default 5 s. */
  connectTimeoutMs?: number;
  /** Connect timeout of test(). Default 3 s. */
  testConnectTimeoutMs?: number;
}

interface Slot {
  readonly kind: ConnectionKind;
  readonly db: number;
  readonly client: Client;
  ready: Promise<Client>;
  phase: ConnPhase;
  lastUsed: number;
  /** Closed on purpose; a pending connect reports that instead of a network error. */
  closing: boolean;
  everReady: boolean;
  /** "host:port" of another node of the profile (a replica, its master); undefined: the profile's own address. */
  readonly node: string | undefined;
  /** Connected through the sentinels: its server is the master they name. */
  readonly viaSentinel: boolean;
  /** A Cluster client's error context (its options name no single address). */
  readonly clusterCtx: ErrorContext | undefined;
  /** Its lease on the profile's SSH tunnel, released when the client ends. */
  readonly via: Via | undefined;
}

interface Entry {
  readonly id: string;
  address: string;
  shared: Map<number, Slot>;
  monitoring: Map<number, Slot>;
  /** Monitoring connections to the profile's other nodes, by "host:port". */
  nodes: Map<string, Slot>;
  dedicated: Set<Slot>;
  lastError: string | undefined;
  closed: boolean;
  emitted: ConnectionState | undefined;
  /** Sentinel profiles: "host:port" of the master, as last confirmed. */
  master: string | undefined;
  /** Bumped for each check of a master change; a check that is not the latest is dropped. */
  masterCheck: number;
  /** News for a ready state, e.g. "failover: master is now 10.0.0.6:6379". */
  notice: string | undefined;
}

const DEFAULT_IDLE_MS = 5 * 60_000;
/** A master change most sentinels do not name yet is asked about again this often, this many times. */
const MASTER_CHECK_MS = 250;
const MASTER_CHECKS = 20;

/**
 * Connections per profile: one shared client per (profile, db), whose
 * commands pipeline on one socket (no SELECT juggling, since a SELECT would
 * leak into every other caller's commands); one monitoring client per
 * (profile, db); dedicated clients on request.
 *
 * Sentinel profiles get the same clients in ioredis' sentinel mode: each
 * (re)connect asks the sentinels for the master, so after a failover they land
 * on the new one, and the state stream says so. Cluster profiles get ioredis
 * Cluster clients through cluster() instead: a single-node connection to a
 * seed would act on a third of the keyspace, so shared() refuses them.
 */
export class Pool implements PoolApi {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(s: ConnectionState) => void>();
  private readonly idleMs: number;
  private sweepTimer: NodeJS.Timeout | undefined;
  private shuttingDown: Promise<void> | undefined;

  constructor(private readonly opts: PoolOptions) {
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  }

  async shared(connectionId: string, db?: number): Promise<Redis> {
    const { entry, spec } = this.lookup(connectionId);
    refuseCluster(spec);
    return asRedis(await this.pooled(entry, spec, 'shared', db ?? spec.db));
  }

  async monitoring(connectionId: string, db?: number): Promise<Redis> {
    const { entry, spec } = this.lookup(connectionId);
    refuseCluster(spec);
    return asRedis(await this.pooled(entry, spec, 'monitoring', db ?? spec.db));
  }

  topology(connectionId: string): TopologyKind {
    return topologyKind(this.resolve(connectionId).spec);
  }

  async cluster(connectionId: string, kind: 'shared' | 'monitoring' = 'shared'): Promise<Cluster> {
    const { entry, spec } = this.lookup(connectionId);
    requireClusterProfile(spec);
    // SELECT is refused in cluster mode: a cluster has DB 0 only.
    return asCluster(await this.pooled(entry, spec, kind, 0));
  }

  async dedicatedCluster(connectionId: string, purpose: Exclude<ConnectionPurpose, 'shared'>): Promise<{ cluster: Cluster; release(): Promise<void> }> {
    const { entry, spec } = this.lookup(connectionId);
    requireClusterProfile(spec);
    const { client, release } = await this.ownSlot(entry, spec, 0, purpose, undefined);
    return { cluster: asCluster(client), release };
  }

  masters(connectionId: string): Promise<MasterNode[]> {
    return mastersOf(this.resolve(connectionId).spec, this.queryClients(connectionId));
  }

  nodes(connectionId: string): Promise<TopologyNode[]> {
    return nodesOf(this.resolve(connectionId).spec, this.queryClients(connectionId));
  }

  async node(connectionId: string, address: string): Promise<Redis> {
    const { entry, spec } = this.lookup(connectionId);
    const target = otherNode(spec, address);
    if (target === undefined) return this.monitoring(connectionId);
    await prepareSsh(target.spec);
    let slot = entry.nodes.get(target.key);
    if (slot === undefined || slot.phase === 'closed') {
      slot = this.open(entry, target.spec, 'monitoring', spec.db, 'monitoring', target.key);
      entry.nodes.set(target.key, slot);
      this.ensureSweep();
    }
    slot.lastUsed = Date.now();
    return asRedis(await slot.ready);
  }

  address(connectionId: string): string {
    const { spec } = this.resolve(connectionId);
    // From a cluster's seed, monitoring would see one shard and call that the profile: it walks
    // CLUSTER NODES (nodes()) instead, and a caller that still asks is refused.
    refuseCluster(spec, 'Monitoring (the Overview and MONITOR)');
    return `${spec.host}:${spec.port}`;
  }

  async dedicated(connectionId: string, opts: DedicatedOptions): Promise<{ redis: Redis; release(): Promise<void> }> {
    const { entry, spec } = this.lookup(connectionId);
    const target = opts.address === undefined ? undefined : otherNode(spec, opts.address);
    if (target === undefined) refuseCluster(spec);
    const { client, release } = await this.ownSlot(entry, target?.spec ?? spec, opts.db ?? spec.db, opts.purpose, target?.key);
    return { redis: asRedis(client), release };
  }

  test(spec: ProfileSpec): Promise<TestResult> {
    return testConnection(spec, this.opts.testConnectTimeoutMs ?? DEFAULTS.testConnectTimeoutMs);
  }

  async closeProfile(connectionId: string): Promise<void> {
    const entry = this.entries.get(connectionId);
    if (entry === undefined) return;
    entry.closed = true;
    entry.lastError = undefined;
    // An edited profile may name other sentinels or another master: no failover to report against it.
    entry.master = undefined;
    entry.masterCheck++;
    entry.notice = undefined;
    await Promise.all(this.slotsOf(entry).map((s) => this.closeSlot(entry, s)));
    this.recompute(entry);
  }

  onState(cb: (s: ConnectionState) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  states(): ConnectionState[] {
    const at = Date.now();
    const out = new Map<string, ConnectionState>();
    for (const p of this.opts.list?.() ?? []) out.set(p.id, { profileId: p.id, state: 'idle', at });
    for (const entry of this.entries.values()) {
      if (this.opts.list !== undefined && !out.has(entry.id)) continue; // removed since
      out.set(entry.id, { ...this.current(entry), at });
    }
    return [...out.values()];
  }

  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      clearInterval(this.sweepTimer);
      this.sweepTimer = undefined;
      await Promise.all([...this.entries.keys()].map((id) => this.closeProfile(id)));
    })();
    return this.shuttingDown;
  }

  private async pooled(entry: Entry, spec: ProfileSpec, kind: 'shared' | 'monitoring', db: number): Promise<Client> {
    await prepareSsh(spec);
    const map = entry[kind];
    let slot = map.get(db);
    if (slot === undefined || slot.phase === 'closed') {
      slot = this.open(entry, spec, kind, db, kind);
      map.set(db, slot);
      this.ensureSweep();
    }
    slot.lastUsed = Date.now();
    return slot.ready;
  }

  /** A dedicated client: tracked for closeProfile() and shutdown(), closed by the caller's release(). */
  private async ownSlot(
    entry: Entry,
    spec: ProfileSpec,
    db: number,
    purpose: string,
    node: string | undefined,
  ): Promise<{ client: Client; release(): Promise<void> }> {
    await prepareSsh(spec);
    const slot = this.open(entry, spec, 'dedicated', db, purpose, node);
    entry.dedicated.add(slot);
    const client = await slot.ready;
    let released: Promise<void> | undefined;
    return {
      client,
      release: () => {
        released ??= this.closeSlot(entry, slot);
        return released;
      },
    };
  }

  private queryClients(connectionId: string): QueryClients {
    return { cluster: () => this.cluster(connectionId, 'monitoring'), monitoring: () => this.monitoring(connectionId) };
  }

  private resolve(connectionId: string): StoredProfile {
    const profile = this.opts.resolve(connectionId);
    if (profile === undefined) throw new AppError('NOT_FOUND', `No connection profile with id "${connectionId}".`);
    return profile;
  }

  private lookup(connectionId: string): { entry: Entry; spec: ProfileSpec } {
    if (this.shuttingDown !== undefined) {
      throw new AppError('INTERNAL', 'The connection pool is shut down; no new connections are made.');
    }
    const profile = this.resolve(connectionId);
    let entry = this.entries.get(connectionId);
    if (entry === undefined) {
      entry = {
        id: connectionId,
        address: '',
        shared: new Map(),
        monitoring: new Map(),
        nodes: new Map(),
        dedicated: new Set(),
        lastError: undefined,
        closed: false,
        emitted: undefined,
        master: undefined,
        masterCheck: 0,
        notice: undefined,
      };
      this.entries.set(connectionId, entry);
    }
    entry.address = `${profile.spec.host}:${profile.spec.port}`;
    return { entry, spec: profile.spec };
  }

  private open(entry: Entry, spec: ProfileSpec, kind: ConnectionKind, db: number, purpose: string, node?: string): Slot {
    const commandTimeoutMs =
      kind === 'shared'
        ? (this.opts.commandTimeoutMs ?? DEFAULTS.sharedCommandTimeoutMs)
        : kind === 'monitoring'
          ? (this.opts.monitoringCommandTimeoutMs ?? DEFAULTS.monitoringCommandTimeoutMs)
          : undefined;
    const connectTimeoutMs = this.opts.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
    const tuning = {
      db,
      connectTimeoutMs,
      ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }),
      connectionName: `cacheboard:${purpose}:${entry.id}`,
      via: viaFor(spec),
    };
    let client: Client;
    let ctx: ErrorContext | undefined;
    if (spec.topology?.kind === 'cluster') {
      const { seeds, options } = toClusterOptions(spec, kind, tuning);
      client = new Cluster(seeds, options);
      ctx = { label: `cluster seeds ${entryPoints(spec).join(', ')}`, connectTimeoutMs };
      if (spec.password !== undefined) ctx.password = spec.password;
    } else {
      client = new Redis(toRedisOptions(spec, kind, tuning));
    }
    const slot: Slot = {
      kind,
      db,
      client,
      ready: Promise.resolve(client), // replaced below, once the slot exists for the handlers to see
      phase: 'connecting',
      lastUsed: Date.now(),
      closing: false,
      everReady: false,
      node,
      viaSentinel: spec.topology?.kind === 'sentinel',
      clusterCtx: ctx,
      via: tuning.via,
    };
    releaseOnEnd(client, slot.via);
    this.watch(entry, slot);
    entry.closed = false;
    if (ctx === undefined && slot.via !== undefined && spec.topology === undefined) {
      // Through SSH the client dials a loopback port: errors name the server behind it instead.
      ctx = { host: spec.host, port: spec.port, connectTimeoutMs, ...(spec.password === undefined ? {} : { password: spec.password }) };
    }
    slot.ready = connectReady(client, connectTimeoutMs, ctx).then(
      () => {
        // A Cluster emits "ready" on the next tick, after connect() resolved: the state must not lag behind.
        this.setPhase(entry, slot, 'ready');
        return client;
      },
      async (err: unknown) => {
        const tunnel = await slot.via?.failure();
        this.forget(entry, slot);
        if (slot.closing) {
          throw new AppError('DISCONNECTED', `The connection to ${entry.address} was closed before it was ready (profile closed or app shutting down).`);
        }
        const seedTls = tunnel === undefined && slot.clusterCtx !== undefined && isUnreachable(err) ? await seedTlsRefusal(spec, connectTimeoutMs) : undefined;
        const mapped =
          (tunnel === undefined ? undefined : { code: tunnel.code, message: tunnel.message, detail: tunnel.message }) ??
          seedTls ??
          (err instanceof ConnectError ? err : mapRedisError(err, ctx ?? contextOf(asRedis(client))));
        // Another node being down is the metrics' news, not the profile's connection state.
        if (node === undefined) entry.lastError = mapped.detail;
        slot.phase = 'closed';
        this.recompute(entry);
        throw tunnel ?? seedTls ?? (err instanceof AppError ? err : new AppError(mapped.code, mapped.message));
      },
    );
    this.recompute(entry);
    return slot;
  }

  /** Track a client's life from ioredis' status events (it emits one per status change). */
  private setPhase(entry: Entry, slot: Slot, phase: ConnPhase): void {
    if (slot.phase === 'closed' || (phase === 'ready' && slot.phase === 'ready')) return;
    slot.phase = phase;
    if (phase === 'ready') {
      slot.everReady = true;
      if (slot.node === undefined) entry.lastError = undefined;
      if (slot.viaSentinel) this.noteMaster(entry, slot);
    }
    this.recompute(entry);
  }

  private watch(entry: Entry, slot: Slot): void {
    const redis = slot.client;
    const set = (phase: ConnPhase): void => this.setPhase(entry, slot, phase);
    redis.on('error', (err: unknown) => {
      if (slot.closing || slot.node !== undefined) return;
      // Read the context now: a sentinel-mode client's server changes with each failover.
      const ctx = isCluster(redis) ? (slot.clusterCtx ?? {}) : contextOf(redis);
      // Through a dead tunnel, the loopback port's refusal says nothing: the tunnel's error does.
      entry.lastError = slot.via?.downReason() ?? mapRedisError(err, ctx).detail;
      this.recompute(entry);
    });
    // While reconnecting, ioredis passes through "connecting" on each attempt; keep reporting reconnecting.
    redis.on('connecting', () => set(slot.phase === 'reconnecting' ? 'reconnecting' : 'connecting'));
    redis.on('ready', () => set('ready'));
    // Before the first ready, a close means the first connect failed: connectReady rejects and
    // disconnects, so reporting "reconnecting" for that instant would be wrong.
    redis.on('reconnecting', () => set(slot.everReady ? 'reconnecting' : slot.phase));
    redis.on('end', () => {
      slot.phase = 'closed';
      this.forget(entry, slot);
      this.recompute(entry);
    });
  }

  /**
   * A sentinel-mode connection became ready on the server a sentinel named.
   * A different server than last time usually means a failover: ioredis
   * reconnected (Sentinel kills the old master's clients when it demotes it,
   * or the old master died) and its ready check found this one with role master.
   * But during the switch a connection can also reach the old master, still a
   * master for a moment, through a sentinel that has not heard of the switch.
   * So a change is announced once most sentinels name the new server.
   */
  private noteMaster(entry: Entry, slot: Slot): void {
    const redis = asRedis(slot.client);
    // ioredis types `stream` as always present; it is unset before the first connect.
    const socket = redis.stream as Redis['stream'] | undefined;
    if (socket?.remoteAddress === undefined || socket.remotePort === undefined) return;
    const reached = slot.via?.behind(socket.remoteAddress, socket.remotePort) ?? formatHostPort({ host: socket.remoteAddress, port: socket.remotePort });
    if (entry.master === undefined) entry.master = reached;
    if (entry.master !== reached) this.confirmMaster(entry, reached, ++entry.masterCheck, 0);
  }

  private confirmMaster(entry: Entry, reached: string, check: number, attempt: number): void {
    const spec = this.opts.resolve(entry.id)?.spec;
    void (spec === undefined ? Promise.resolve([]) : mastersNamed(spec)).then((named) => {
      if (check !== entry.masterCheck || entry.closed || entry.master === reached) return;
      const votes = named.filter((m) => m === reached).length;
      // No sentinel answered: the connection's own server is the best word there is.
      if (named.length === 0 || votes * 2 > named.length) {
        entry.master = reached;
        entry.notice = `failover: master is now ${reached}`;
        this.recompute(entry);
      } else if (votes > 0 && attempt < MASTER_CHECKS) {
        // Some sentinels name it, most not yet: the switch is under way. Ask again shortly.
        setTimeout(() => this.confirmMaster(entry, reached, check, attempt + 1), MASTER_CHECK_MS).unref();
      }
      // No sentinel names it: this connection reached a stale master, and Sentinel will cut it.
    });
  }

  private forget(entry: Entry, slot: Slot): void {
    if (slot.kind === 'dedicated') entry.dedicated.delete(slot);
    else if (slot.node !== undefined) {
      if (entry.nodes.get(slot.node) === slot) entry.nodes.delete(slot.node);
    } else if (entry[slot.kind === 'shared' ? 'shared' : 'monitoring'].get(slot.db) === slot) {
      entry[slot.kind === 'shared' ? 'shared' : 'monitoring'].delete(slot.db);
    }
  }

  private async closeSlot(entry: Entry, slot: Slot): Promise<void> {
    slot.closing = true;
    this.forget(entry, slot);
    await closeRedis(slot.client);
    slot.via?.release();
    slot.phase = 'closed';
    this.recompute(entry);
  }

  private slotsOf(entry: Entry): Slot[] {
    return [...entry.shared.values(), ...entry.monitoring.values(), ...entry.nodes.values(), ...entry.dedicated];
  }

  private current(entry: Entry): Omit<ConnectionState, 'at'> {
    const s = aggregateState({
      // The profile's state is its own server's: a replica that is down must not turn it red or green.
      phases: this.slotsOf(entry)
        .filter((x) => x.node === undefined)
        .map((x) => x.phase),
      lastError: entry.lastError,
      closed: entry.closed,
      address: entry.address,
      notice: entry.notice,
    });
    return { profileId: entry.id, ...s };
  }

  private recompute(entry: Entry): void {
    const now = this.current(entry);
    const prev = entry.emitted;
    if (prev !== undefined && prev.state === now.state && prev.detail === now.detail) return;
    if (prev === undefined && now.state === 'idle') return;
    const event: ConnectionState = { ...now, at: Date.now() };
    entry.emitted = event;
    for (const cb of this.listeners) {
      try {
        cb(event);
      } catch {
        // A failing subscriber must not break the pool or the other subscribers.
      }
    }
  }

  private ensureSweep(): void {
    if (this.sweepTimer !== undefined) return;
    const every = Math.min(Math.max(Math.floor(this.idleMs / 2), 10), 60_000);
    this.sweepTimer = setInterval(() => this.sweep(), every);
    // Idle sweeping must never keep the process alive on its own.
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const entry of this.entries.values()) {
      for (const slot of [...entry.shared.values(), ...entry.monitoring.values(), ...entry.nodes.values()]) {
        const settled = slot.phase === 'ready' || slot.phase === 'reconnecting';
        // commandQueue holds commands sent but not yet answered: a slow call is not idleness.
        if (settled && slot.lastUsed <= cutoff && pendingCommands(slot.client) === 0) {
          void this.closeSlot(entry, slot);
        }
      }
    }
  }
}
