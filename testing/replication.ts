import { Redis } from 'ioredis';
import { parseInfo } from '../main/core/info/parseInfo';
import type { RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { startLatencyProxy, type LatencyProxy } from '../main/core/trials/latencyProxy';
import { eventually, startRedis } from './redis';

export interface ReplicaSet {
  master: RedisProcess;
  replicas: RedisProcess[];
  /** Stop every server (replicas first). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Redis 7 syncs replicas diskless with a 5 s delay by default (to batch replicas
 * into one transfer); tests want a sync at once.
 */
export const FAST_SYNC_ARGS = ['--repl-diskless-sync-delay', '0'] as const;

/** Arguments that make a server a fast-syncing replica of `master`. */
export function replicaArgs(master: { port: number }, password?: string): string[] {
  return ['--replicaof', '127.0.0.1', String(master.port), ...FAST_SYNC_ARGS, ...(password === undefined ? [] : ['--masterauth', password])];
}

async function infoReplication(proc: RedisProcess, password?: string): Promise<Record<string, string>> {
  const redis = new Redis({
    host: proc.host,
    port: proc.port,
    lazyConnect: true,
    retryStrategy: () => null,
    ...(password === undefined ? {} : { password }),
  });
  try {
    await redis.connect();
    return parseInfo(await redis.info('replication'))['replication'] ?? {};
  } finally {
    redis.disconnect();
  }
}

/** Whether the replica's link to its master is up and the initial sync is done. */
export async function replicaInSync(replica: RedisProcess, password?: string): Promise<boolean> {
  const r = await infoReplication(replica, password).catch(() => ({}) as Record<string, string>);
  return r['master_link_status'] === 'up' && r['master_sync_in_progress'] === '0';
}

/** Wait until every replica's link is up and the master lists that many online replicas. */
export async function waitForReplication(master: RedisProcess, replicas: RedisProcess[], opts: { password?: string; timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const ok = await eventually(
    async () => {
      const links = await Promise.all(replicas.map((r) => replicaInSync(r, opts.password)));
      if (!links.every(Boolean)) return false;
      const m = await infoReplication(master, opts.password).catch(() => ({}) as Record<string, string>);
      const online = Object.entries(m).filter(([k, v]) => /^slave\d+$/.test(k) && v.includes('state=online')).length;
      return Number(m['connected_slaves']) === replicas.length && online === replicas.length;
    },
    timeoutMs,
    25,
  );
  if (!ok) throw new Error(`replication did not come up within ${timeoutMs} ms (master ${master.port})`);
}

/**
 * A master and `replicas` replicas of it on free ports, each with its own temp
 * dir, resolved once every replica reports master_link_status:up and the master
 * lists them all as connected_slaves.
 */
export async function startReplicaSet(opts: {
  replicas: number;
  /** Extra arguments for every server, e.g. ['--enable-debug-command', 'yes']. */
  args?: string[];
  masterArgs?: string[];
  /** requirepass on every server, and masterauth on the replicas. */
  password?: string;
}): Promise<ReplicaSet> {
  const auth = opts.password === undefined ? {} : { password: opts.password };
  const extra = opts.args ?? [];
  const master = await startRedis({ ...auth, args: [...FAST_SYNC_ARGS, ...extra, ...(opts.masterArgs ?? [])] });
  const replicas: RedisProcess[] = [];
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await Promise.all(replicas.map((r) => r.stop()));
      await master.stop();
    })();
    return stopping;
  };
  try {
    const started = await Promise.allSettled(
      Array.from({ length: opts.replicas }, () => startRedis({ ...auth, args: [...replicaArgs(master, opts.password), ...extra] })),
    );
    for (const s of started) if (s.status === 'fulfilled') replicas.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    await waitForReplication(master, replicas, auth);
  } catch (err) {
    await stop();
    throw err;
  }
  return { master, replicas, stop };
}

export interface DelayedReplica {
  replica: RedisProcess;
  /** The proxy the replica reaches its master through. */
  proxy: LatencyProxy;
  /** Stop the replica, then the proxy. Idempotent. */
  stop(): Promise<void>;
}

/**
 * One more replica of `master`, whose replication link runs through a latency
 * proxy holding every chunk `delayMs` (the master's writes reach it that much
 * later: a replica across a slow link). Resolved once it is in sync.
 */
export async function startDelayedReplica(master: RedisProcess, delayMs: number): Promise<DelayedReplica> {
  const proxy = await startLatencyProxy({ host: master.host, port: master.port }, delayMs);
  let replica: RedisProcess;
  try {
    replica = await startRedis({ args: [...replicaArgs({ port: proxy.port })] });
  } catch (err) {
    await proxy.close();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= replica.stop().then(() => proxy.close());
    return stopping;
  };
  try {
    await waitForReplication(master, [replica], { timeoutMs: 20_000 });
  } catch (err) {
    await stop();
    throw err;
  }
  return { replica, proxy, stop };
}
