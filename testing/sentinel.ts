import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { eventually, startRedis } from './redis';
import { startReplicaSet, type ReplicaSet } from './replication';

export interface SentinelSet {
  /** The servers as started: master first; a failover changes who is master (see currentMaster). */
  master: RedisProcess;
  replicas: RedisProcess[];
  sentinels: RedisProcess[];
  masterName: string;
  /** "127.0.0.1:port" of every sentinel: what a profile lists. */
  sentinelAddresses: string[];
  password: string | undefined;
  sentinelPassword: string | undefined;
  /** "host:port" of the master as the first sentinel names it now. */
  currentMaster(): Promise<string>;
  /** A client to sentinel `i` (closed by the caller). */
  sentinelClient(i?: number): Promise<Redis>;
  /** Stop every sentinel and server. Idempotent. */
  stop(): Promise<void>;
}

export interface SentinelSetOptions {
  masterName?: string;
  /** requirepass on the data nodes (masterauth on replicas, auth-pass in the sentinels). */
  password?: string;
  /** requirepass on the sentinels themselves, and sentinel-pass so they can talk to each other. */
  sentinelPassword?: string;
  /** down-after-milliseconds: how long the master may be silent before it is S_DOWN. Default 2 s. */
  downAfterMs?: number;
}

const QUORUM = 2;

function sentinelConfig(master: RedisProcess, name: string, o: SentinelSetOptions): string {
  return [
    `sentinel monitor ${name} 127.0.0.1 ${master.port} ${QUORUM}`,
    `sentinel down-after-milliseconds ${name} ${o.downAfterMs ?? 2_000}`,
    // Also the wait before the same master may be failed over again; the default is 3 minutes.
    `sentinel failover-timeout ${name} 10000`,
    `sentinel parallel-syncs ${name} 2`,
    ...(o.password === undefined ? [] : [`sentinel auth-pass ${name} ${o.password}`]),
    ...(o.sentinelPassword === undefined ? [] : [`sentinel sentinel-pass ${o.sentinelPassword}`]),
    '',
  ].join('\n');
}

async function connectSentinel(proc: RedisProcess, password: string | undefined): Promise<Redis> {
  const redis = new Redis({
    host: proc.host,
    port: proc.port,
    lazyConnect: true,
    retryStrategy: () => null,
    // A sentinel has no INFO replication section for ioredis' ready check to read.
    enableReadyCheck: false,
    ...(password === undefined ? {} : { password }),
  });
  await redis.connect();
  return redis;
}

async function askSentinel(proc: RedisProcess, password: string | undefined, args: string[]): Promise<unknown> {
  const redis = await connectSentinel(proc, password);
  try {
    return await redis.call('SENTINEL', ...args);
  } finally {
    redis.disconnect();
  }
}

/** SENTINEL MASTER / REPLICAS reply (flat field list) as an object. */
function pairs(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}

/**
 * Whether a sentinel knows the master, both replicas as healthy, in-sync
 * candidates and the other sentinels (learned from their hello messages,
 * published every 2 s): only then can any of them run a failover.
 */
async function sentinelReady(proc: RedisProcess, set: SentinelSetOptions & { name: string; replicas: number; peers: number }): Promise<boolean> {
  try {
    const master = pairs(await askSentinel(proc, set.sentinelPassword, ['MASTER', set.name]));
    if (master['flags'] !== 'master' || Number(master['num-other-sentinels']) !== set.peers) return false;
    const replicas = await askSentinel(proc, set.sentinelPassword, ['REPLICAS', set.name]);
    if (!Array.isArray(replicas) || replicas.length !== set.replicas) return false;
    return replicas.map(pairs).every((r) => r['flags'] === 'slave' && r['master-link-status'] === 'ok');
  } catch {
    return false;
  }
}

/**
 * A master with 2 replicas and 3 sentinels (quorum 2) on loopback, each in its
 * own temp dir. Resolves once every sentinel sees the master, both replicas in
 * sync and the two other sentinels.
 */
export async function startSentinelSet(opts: SentinelSetOptions = {}): Promise<SentinelSet> {
  const name = opts.masterName ?? 'cacheboard-test';
  const confDir = mkdtempSync(join(tmpdir(), 'cacheboard-sentinel-'));
  const sentinels: RedisProcess[] = [];
  let data: ReplicaSet | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await Promise.all(sentinels.map((s) => s.stop()));
      await data?.stop();
      rmSync(confDir, { recursive: true, force: true });
    })();
    return stopping;
  };
  try {
    data = await startReplicaSet({ replicas: 2, ...(opts.password === undefined ? {} : { password: opts.password }) });
    const { master } = data;
    const started = await Promise.allSettled(
      [0, 1, 2].map((i) => {
        // Sentinel rewrites its config file with what it learns, so each needs its own.
        const configFile = join(confDir, `sentinel-${i}.conf`);
        writeFileSync(configFile, sentinelConfig(master, name, opts));
        return startRedis({
          configFile,
          args: ['--sentinel'],
          ...(opts.sentinelPassword === undefined ? {} : { password: opts.sentinelPassword }),
        });
      }),
    );
    for (const s of started) if (s.status === 'fulfilled') sentinels.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const ready = await eventually(
      async () => (await Promise.all(sentinels.map((s) => sentinelReady(s, { ...opts, name, replicas: 2, peers: 2 })))).every(Boolean),
      15_000,
      50,
    );
    if (!ready) throw new Error(`the sentinels did not all see ${name}, its 2 replicas and each other within 15 s`);
  } catch (err) {
    await stop();
    throw err;
  }
  const set: SentinelSet = {
    master: data.master,
    replicas: data.replicas,
    sentinels,
    masterName: name,
    sentinelAddresses: sentinels.map((s) => `${s.host}:${s.port}`),
    password: opts.password,
    sentinelPassword: opts.sentinelPassword,
    async currentMaster() {
      const reply = await askSentinel(sentinels[0] as RedisProcess, opts.sentinelPassword, ['GET-MASTER-ADDR-BY-NAME', name]);
      if (!Array.isArray(reply)) throw new Error(`sentinel does not know ${name}`);
      return `${String(reply[0])}:${String(reply[1])}`;
    },
    async sentinelClient(i = 0) {
      const proc = sentinels[i];
      if (proc === undefined) throw new Error(`no sentinel ${i}`);
      return connectSentinel(proc, opts.sentinelPassword);
    },
    stop,
  };
  return set;
}

/**
 * One sentinel set for a describe block: started in beforeAll, stopped in afterAll.
 * Call at collection time; read the set inside tests through the getter.
 */
export function useSentinel(opts: SentinelSetOptions = {}): () => SentinelSet {
  let set: SentinelSet | undefined;
  beforeAll(async () => {
    set = await startSentinelSet(opts);
  }, 60_000);
  afterAll(async () => {
    await set?.stop();
  });
  return () => {
    if (set === undefined) throw new Error('useSentinel(): the set is only available inside tests and hooks');
    return set;
  };
}
