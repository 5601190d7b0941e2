import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster, Redis } from 'ioredis';
import { cliArgs } from '../../testing/cli';
import { afterAll, afterEach } from 'vitest';
import { closeAdmins, eventually, type RedisProcess } from '../../testing/redis';

/** Tests only: `n` keys `prefix:i` (value "v", a TTL of `ttl` s when not 0) written by one script on the server: fast for 100k+. */
export async function fillKeys(admin: Redis, prefix: string, n: number, ttl = 0): Promise<void> {
  await admin.eval(
    `for i = 1, tonumber(ARGV[2]) do redis.call('SET', ARGV[1] .. ':' .. i, 'v') if ARGV[3] ~= '0' then redis.call('EXPIRE', ARGV[1] .. ':' .. i, ARGV[3]) end end`,
    0,
    prefix,
    String(n),
    String(ttl),
  );
}

/** Tests only: the keys matching `glob`, by SCAN. */
export async function countKeys(admin: Redis, glob: string): Promise<number> {
  let n = 0;
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', glob, 'COUNT', 1000);
    n += keys.length;
    cursor = next;
  } while (cursor !== '0');
  return n;
}

/** Tests only: `n` keys `prefix:i` (value "v") through a cluster client, `batch` commands in flight at a time. */
export async function fillClusterKeys(cluster: Cluster, prefix: string, n: number, batch = 5_000): Promise<void> {
  for (let from = 1; from <= n; from += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, n - from + 1) }, (_, i) => cluster.set(`${prefix}:${from + i}`, 'v')));
  }
}

/** Tests only: the CLI (`args`) in a child process; `exited` gives its exit code and output, `running()` whether it still runs. */
export function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, cliArgs(...args), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let done = false;
  const exited = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => {
      done = true;
      resolve({ code, out, err });
    }),
  );
  return { exited, running: () => !done };
}

/** Tests only: the DBSIZE of `admin`'s server once it is below `from` (a run began deleting), polled every 2 ms. */
export async function firstDeletes(admin: Redis, from: number): Promise<number> {
  let now = from;
  const seen = await eventually(async () => (now = await admin.dbsize()) < from, 60_000, 2);
  if (!seen) throw new Error(`DBSIZE stayed at ${from}: the run deleted nothing in 60 s`);
  return now;
}

/**
 * Tests only: a temporary folder for a file's runs (`env` points the CLI's data dir into it) and
 * the servers its tests start, stopped after each test (stop() sends SIGCONT first, so a server a
 * failed test left frozen still exits); the folder goes after the file.
 */
export function useCliRuns(prefix: string): { dir: string; env: { CACHEBOARD_DATA_DIR: string }; servers: RedisProcess[] } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const servers: RedisProcess[] = [];
  afterEach(async () => {
    await closeAdmins();
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, env: { CACHEBOARD_DATA_DIR: join(dir, 'data') }, servers };
}
