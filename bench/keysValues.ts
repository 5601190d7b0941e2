import { Redis } from 'ioredis';
import type { RpcClient } from '../app/rpcClient';
import { summarize } from '../main/core/audience/timings';
import { parseInfo, parseInfoPairs } from '../main/core/info/parseInfo';
import { firstPage, firstView } from '../main/core/keys/values/firstView';
import { clientOf } from '../main/core/keys/values/valueClient';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { argValue, startServe, wsRpc } from './measure';

/** The values, each under a name of its type. */
const BIG = { string: 'big:string', hash: 'big:hash', zset: 'big:zset', stream: 'big:stream' } as const;
const SMALL = 'user:1001';
/** Commands that read a whole value (or keyspace): none may appear in the stats. */
const UNBOUNDED = ['get', 'hgetall', 'hkeys', 'hvals', 'smembers', 'keys', 'sort', 'dump'];
const WARMUP = 2;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The big values, built with pipelined batches of 1,000 fields, members or entries. */
async function build(admin: Redis, o: { stringMb: number; hashFields: number; zsetMembers: number; streamEntries: number }): Promise<void> {
  await admin.set(BIG.string, Buffer.alloc(o.stringMb * 1024 * 1024, 0x61));
  const batch = 1000;
  const run = async (n: number, add: (p: ReturnType<Redis['pipeline']>, from: number, to: number) => void) => {
    for (let i = 0; i < n; i += batch * 50) {
      const p = admin.pipeline();
      for (let j = i; j < Math.min(n, i + batch * 50); j += batch) add(p, j, Math.min(n, j + batch));
      await p.exec();
    }
  };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
  await run(o.hashFields, (p, a, z) => p.hset(BIG.hash, ...range(a, z).flatMap((k) => [`field:${k}`, `value:${k}`])));
  await run(o.zsetMembers, (p, a, z) => p.zadd(BIG.zset, ...range(a, z).flatMap((k) => [k, `member:${k}`])));
  await run(o.streamEntries, (p, a, z) => {
    for (const k of range(a, z)) p.xadd(BIG.stream, `${k + 1}-0`, 'n', String(k), 'payload', 'x'.repeat(32));
  });
  await admin.hset(SMALL, 'name', 'Ada', 'plan', 'pro', 'visits', '42');
}

/** Client-side ms of one call. */
async function timed<T>(call: () => Promise<T>): Promise<number> {
  const t0 = performance.now();
  await call();
  return performance.now() - t0;
}

/** keys.get then keys.read of the first page, as the Keys page opens a key: each timed, and both together. */
async function webFirstView(rpc: RpcClient, key: string, type: keyof typeof BIG | 'hash', runs: number, gapMs: number) {
  const get: number[] = [];
  const read: number[] = [];
  const both: number[] = [];
  for (let i = 0; i < runs + WARMUP; i++) {
    const g = await timed(() => rpc.invoke('keys.get', { profileId: 'env', key: b64(key) }));
    const r = await timed(() => rpc.invoke('keys.read', { profileId: 'env', key: b64(key), page: firstPage(type) }));
    if (i >= WARMUP) {
      get.push(g);
      read.push(r);
      both.push(g + r);
    }
    // The web build limits calls to 50 a second.
    await sleep(gapMs);
  }
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  return {
    get_p50_ms: r3(summarize(get).p50Ms),
    read_p50_ms: r3(summarize(read).p50Ms),
    first_view_p50_ms: r3(summarize(both).p50Ms),
    first_view_max_ms: r3(Math.max(...both)),
  };
}

/** The same first view straight on an ioredis connection: the anchor, Redis and the engine without the web API. */
async function directFirstView(admin: Redis, key: string, runs: number): Promise<number> {
  const client = clientOf(admin);
  const ms: number[] = [];
  for (let i = 0; i < runs + WARMUP; i++) {
    const t = await timed(() => firstView(client, Buffer.from(key)));
    if (i >= WARMUP) ms.push(t);
  }
  return Math.round(summarize(ms).p50Ms * 1000) / 1000;
}

/** Calls per command since the last CONFIG RESETSTAT. */
async function commandCalls(admin: Redis): Promise<Record<string, number>> {
  const stats = parseInfo(String(await admin.info('commandstats'))).commandstats ?? {};
  return Object.fromEntries(Object.entries(stats).map(([k, v]) => [k.replace(/^cmdstat_/, ''), Number(parseInfoPairs(v).calls ?? 0)]));
}

/**
 * A 32 MB string, a 2M-field hash, a 2M-member zset and a 1M-entry stream (`--string-mb`,
 * `--hash-fields`, `--zset-members`, `--stream-entries`) in a private redis-server; then
 * through `cacheboard serve` on it, each one's first view (keys.get, then keys.read of its
 * first page) timed from the client over the WebSocket, and an exact small key's first view
 * p50 (`--runs`). Anchor: the same first view straight on ioredis. INFO commandstats over
 * the web phase shows which commands ran: none of them reads a whole value.
 */
export async function keysValuesBench(): Promise<Record<string, unknown>> {
  const o = {
    stringMb: argValue('string-mb', 32),
    hashFields: argValue('hash-fields', 2_000_000),
    zsetMembers: argValue('zset-members', 2_000_000),
    streamEntries: argValue('stream-entries', 1_000_000),
  };
  const runs = argValue('runs', 50);
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  try {
    await admin.connect();
    const t0 = performance.now();
    await build(admin, o);
    const buildSeconds = Math.round(performance.now() - t0) / 1000;
    const serve = await startServe(server.url);
    let client: Awaited<ReturnType<typeof wsRpc>> | undefined;
    try {
      client = await wsRpc(serve.base);
      await admin.config('RESETSTAT');
      const big: Record<string, unknown> = {};
      for (const [type, key] of Object.entries(BIG) as Array<[keyof typeof BIG, string]>) big[key] = await webFirstView(client.rpc, key, type, 5, 50);
      const small = await webFirstView(client.rpc, SMALL, 'hash', runs, 45);
      const calls = await commandCalls(admin);
      // One at a time: on one connection, concurrent views would time each other.
      const direct: Record<string, number> = { small_p50_ms: await directFirstView(admin, SMALL, runs) };
      for (const k of Object.values(BIG)) direct[`${k}_p50_ms`] = await directFirstView(admin, k, 5);
      return {
        sizes: { string_mb: o.stringMb, hash_fields: o.hashFields, zset_members: o.zsetMembers, stream_entries: o.streamEntries, build_seconds: buildSeconds },
        web_api: { big, small_key: small, goal_ms: { big_first_view: 200, small_first_view_p50: 20 } },
        anchor_direct_ioredis: direct,
        commandstats_web_phase: calls,
        unbounded_reads: UNBOUNDED.filter((c) => (calls[c] ?? 0) > 0),
      };
    } finally {
      client?.close();
      await serve.stop();
    }
  } finally {
    admin.disconnect();
    await server.stop();
  }
}
