import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { spawnRedisServer, type RedisProcess, type SpawnRedisOptions } from '../main/core/redisProcess/spawnRedisServer';
import { refuseInUnitSuite } from './suiteGuard';

export type { RedisProcess, SpawnRedisOptions };

const started = new Set<RedisProcess>();

/** Spawn a private redis-server on a free port; stop it yourself or with stopAllRedis(). */
export async function startRedis(opts: SpawnRedisOptions = {}): Promise<RedisProcess> {
  refuseInUnitSuite('start redis-server');
  const proc = await spawnRedisServer(opts);
  started.add(proc);
  return proc;
}

export async function stopAllRedis(): Promise<void> {
  const all = [...started];
  started.clear();
  await Promise.all(all.map((p) => p.stop()));
}

/**
 * One server for a describe block: started in beforeAll, stopped in afterAll.
 * Call at collection time; read the process inside tests through the getter.
 */
export function useRedis(opts: SpawnRedisOptions = {}): () => RedisProcess {
  let proc: RedisProcess | undefined;
  beforeAll(async () => {
    proc = await startRedis(opts);
  });
  afterAll(async () => {
    await proc?.stop();
    if (proc !== undefined) started.delete(proc);
  });
  return () => {
    if (proc === undefined) throw new Error('useRedis(): the server is only available inside tests and hooks');
    return proc;
  };
}

const admins = new Set<Redis>();

/**
 * A plain ioredis connection for arranging and inspecting state from the side,
 * not through the code under test. Closed by closeAdmins().
 */
export async function adminClient(proc: RedisProcess, opts: { password?: string; db?: number } = {}): Promise<Redis> {
  const redis = new Redis({
    host: proc.host,
    port: proc.port,
    db: opts.db ?? 0,
    lazyConnect: true,
    retryStrategy: () => null,
    connectionName: 'test-admin',
    ...(opts.password === undefined ? {} : { password: opts.password }),
  });
  await redis.connect();
  admins.add(redis);
  return redis;
}

export async function closeAdmins(): Promise<void> {
  const all = [...admins];
  admins.clear();
  await Promise.all(all.map((r) => r.quit().catch(() => r.disconnect())));
}

/** CLIENT LIST entries whose name starts with `prefix` (the pool names its connections). */
export async function clientsNamed(admin: Redis, prefix: string): Promise<string[]> {
  const list = await admin.client('LIST');
  return String(list)
    .split('\n')
    .filter((line) => new RegExp(`(^| )name=${escapeRegExp(prefix)}`).test(line));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Poll until `check` returns true or the time runs out; returns the last result. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000, stepMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
