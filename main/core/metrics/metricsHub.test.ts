import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { MetricsEvent } from '../../../app/schemas/metrics';
import { adminClient, closeAdmins, eventually } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { parseInfo } from '../info/parseInfo';
import type { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';
import { poolFor, record } from './metricsTestKit';

let set: ReplicaSet;
let pool: Pool;
const hubs: MetricsHub[] = [];
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

function makeHub(opts: { graceMs?: number } = {}): MetricsHub {
  const hub = new MetricsHub({ pool, ...opts });
  hubs.push(hub);
  return hub;
}

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 2 });
  pool = poolFor({ m: set.master, r: set.replicas[1]! });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(hubs.splice(0).map((h) => h.shutdown()));
});
afterAll(async () => {
  await pool.shutdown();
  await closeAdmins();
  await set.stop();
});

async function infoCalls(admin: Redis): Promise<number> {
  const stats = parseInfo(await admin.info('commandstats'))['commandstats'] ?? {};
  return Number(/calls=(\d+)/.exec(stats['cmdstat_info'] ?? '')?.[1] ?? 0);
}

/** Every timer set through the global setTimeout that has neither fired nor been cleared. */
function trackTimers(): () => number {
  const live = new Set<unknown>();
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const t = realSet(() => {
      live.delete(t);
      fn(...args);
    }, ms);
    live.add(t);
    return t;
  }) as typeof setTimeout);
  vi.spyOn(globalThis, 'clearTimeout').mockImplementation((t) => {
    live.delete(t);
    realClear(t);
  });
  return () => live.size;
}

function listenerTotal(redis: Redis): number {
  return redis.eventNames().reduce((n, e) => n + redis.listenerCount(e), 0);
}

describe('MetricsHub.watch', () => {
  it('sends history first, then the topology of master and replicas, then samples of every node', async () => {
    const hub = makeHub();
    const w = record(hub, 'm');
    expect(w.events[0]).toEqual({ kind: 'history', nodes: [] });
    await w.until('topology', () => w.ofKind('topology').length > 0);
    const [replicaA, replicaB] = set.replicas.map(addr).sort();
    expect(w.ofKind('topology')[0]?.nodes).toEqual([
      { address: addr(set.master), role: 'master', up: true },
      { address: replicaA, role: 'replica', master: addr(set.master), up: true },
      { address: replicaB, role: 'replica', master: addr(set.master), up: true },
    ]);
    await w.ticks(1);
    expect(
      w
        .ofKind('samples')
        .at(-1)
        ?.samples.map((s) => s.address),
    ).toEqual([addr(set.master), replicaA, replicaB]);
    for (const e of w.events) expect(() => MetricsEvent.parse(e)).not.toThrow();
    w.stop();
  });

  it('derives ops/s from writes and keyspace counts on every node', async () => {
    const hub = makeHub();
    const w = record(hub, 'm');
    const admin = await adminClient(set.master);
    await admin.select(3);
    const writes = admin.pipeline();
    for (let i = 0; i < 300; i++) writes.set(`k${i}`, 'v', 'EX', 600);
    await writes.exec();
    const keys3 = (s: { keyspace?: { db: number; keys: number; expires: number }[] } | undefined): unknown => s?.keyspace?.find((k) => k.db === 3);
    await w.until('keyspace on every node', () =>
      [set.master, ...set.replicas].every((p) => JSON.stringify(keys3(w.latest(addr(p)))) === JSON.stringify({ db: 3, keys: 300, expires: 300 })),
    );
    const opsSeen = w.ofKind('samples').map((e) => e.samples.find((s) => s.address === addr(set.master))?.traffic?.opsPerSec ?? 0);
    expect(Math.max(...opsSeen)).toBeGreaterThan(0);
    const master = w.latest(addr(set.master));
    expect(master?.replication?.replicas).toHaveLength(2);
    expect(master?.topCommands?.length).toBeGreaterThan(0);
    await admin.flushdb();
    w.stop();
  });

  it('finds the same tree from a profile that points at a replica', async () => {
    const hub = makeHub();
    const fromMaster = record(hub, 'm');
    const fromReplica = record(hub, 'r');
    await fromMaster.until('topology', () => fromMaster.ofKind('topology').length > 0);
    await fromReplica.until('topology', () => fromReplica.ofKind('topology').length > 0);
    expect(fromReplica.ofKind('topology')[0]?.nodes).toEqual(fromMaster.ofKind('topology')[0]?.nodes);
    fromMaster.stop();
    fromReplica.stop();
  });

  it('shares one poller between watchers (INFO per node does not double) and the last leaving stops it', async () => {
    const hub = makeHub();
    const admin = await adminClient(set.replicas[0]!);
    const a = record(hub, 'm', { intervalMs: 300 });
    await a.ticks(2);
    const b = record(hub, 'm', { intervalMs: 300 });
    const before = await infoCalls(admin);
    const ticksBefore = a.ofKind('samples').length;
    await a.ticks(6);
    const polls = (await infoCalls(admin)) - before - 1; // minus our own INFO
    const ticks = a.ofKind('samples').length - ticksBefore;
    expect(polls).toBeGreaterThanOrEqual(ticks - 1);
    expect(polls).toBeLessThanOrEqual(ticks + 2); // a periodic rediscovery reuses the tick's INFO
    // Both get the very same events.
    expect(b.ofKind('samples').at(-1)).toBe(a.ofKind('samples').at(-1));
    a.stop();
    await b.ticks(2);
    b.stop();
    await new Promise((r) => setTimeout(r, 350)); // a tick in flight may still finish
    const stopped = await infoCalls(admin);
    await new Promise((r) => setTimeout(r, 900));
    expect((await infoCalls(admin)) - stopped - 1).toBe(0);
  });

  it('polls at the smallest interval any watcher asked for', async () => {
    const hub = makeHub();
    const slow = record(hub, 'm', { intervalMs: 5_000 });
    await slow.ticks(1);
    const fast = record(hub, 'm', { intervalMs: 250 });
    const t0 = Date.now();
    await fast.ticks(4, 3_000);
    expect(Date.now() - t0).toBeLessThan(2_500);
    slow.stop();
    fast.stop();
  });

  it('leaves no timers or listeners piling up: a bounded number while polling, none after the last unwatch', async () => {
    const live = trackTimers();
    const hub = makeHub({ graceMs: 200 });
    await pool.node('m', addr(set.master));
    const baseline = live();
    const w = record(hub, 'm');
    await w.ticks(3);
    const conn = await pool.node('m', addr(set.replicas[0]!));
    const listenersEarly = listenerTotal(conn);
    const timersEarly = live();
    await w.ticks(12);
    expect(listenerTotal(conn)).toBe(listenersEarly);
    expect(live()).toBeLessThanOrEqual(timersEarly + 3);
    w.stop();
    // After the grace period the hub forgets the profile and holds no timer at all.
    expect(await eventually(() => live() <= baseline, 2_000)).toBe(true);
  });

  it('a watcher returning within the grace period gets the history back; after it, history is dropped', async () => {
    const hub = makeHub({ graceMs: 400 });
    const first = record(hub, 'm');
    await first.ticks(3);
    first.stop();
    const again = record(hub, 'm');
    const history = again.ofKind('history')[0]?.nodes ?? [];
    expect(history.map((h) => h.address)).toContain(addr(set.master));
    expect(history.find((h) => h.address === addr(set.master))?.opsPerSec.filter((v) => v !== null).length).toBeGreaterThanOrEqual(3);
    // The topology comes right after the history, before any new tick.
    expect(again.events[1]?.kind).toBe('topology');
    again.stop();
    await new Promise((r) => setTimeout(r, 600));
    const later = record(hub, 'm');
    expect(later.ofKind('history')[0]?.nodes).toEqual([]);
    later.stop();
  });

  it('refuses an unknown profile', () => {
    const hub = makeHub();
    expect(() => hub.watch('nope', { intervalMs: 250, lagBytesThreshold: 0, lagSecondsThreshold: 0 }, () => {})).toThrow(/nope/);
  });
});

describe('MetricsHub.alerts', () => {
  it('sends the active alerts first, then raises and resolves (memory_high at 90% of maxmemory)', async () => {
    const hub = makeHub();
    const admin = await adminClient(set.replicas[0]!);
    const replica = addr(set.replicas[0]!);
    const seen: string[] = [];
    const stopAlerts = hub.alerts('m', (a) => seen.push(`${a.kind}@${a.address}${a.resolvedAt === undefined ? '' : ' resolved'}`));
    const w = record(hub, 'm');
    await w.ticks(1);
    const used = Number(parseInfo(await admin.info('memory'))['memory']?.['used_memory']);
    await admin.config('SET', 'maxmemory', String(Math.ceil(used / 0.95)));
    await w.until('memory_high', () => seen.includes(`memory_high@${replica}`));
    const late: string[] = [];
    const stopLate = hub.alerts('m', (a) => late.push(`${a.kind}@${a.address}`));
    expect(late).toContain(`memory_high@${replica}`);
    await admin.config('SET', 'maxmemory', '0');
    await w.until('resolved', () => seen.includes(`memory_high@${replica} resolved`));
    expect(
      w
        .alerts()
        .filter((a) => a.kind === 'memory_high')
        .map((a) => a.resolvedAt === undefined),
    ).toEqual([true, false]);
    stopAlerts();
    stopLate();
    w.stop();
  });
});

describe('MetricsHub.shutdown', () => {
  it('stops every poller, refuses new watchers, and with the pool closed leaves no sockets', async () => {
    const sockets = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    const own = poolFor({ m: set.master });
    const before = sockets();
    const hub = new MetricsHub({ pool: own });
    const w = record(hub, 'm');
    await w.ticks(2);
    expect(sockets()).toBeGreaterThan(before);
    await hub.shutdown();
    const n = w.ofKind('samples').length;
    await own.shutdown();
    expect(await eventually(() => sockets() === before, 2_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(w.ofKind('samples').length).toBe(n);
    expect(() => record(hub, 'm')).toThrow(/shut down/);
  });
});
