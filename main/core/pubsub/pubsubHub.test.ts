import { spawn } from 'node:child_process';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, eventually, startRedis, type RedisProcess } from '../../../testing/redis';
import { publishFlood } from '../../../testing/traffic';
import { Pool } from '../pool/pool';
import { spawnRedisServer } from '../redisProcess/spawnRedisServer';
import { PubSubHub, type PubSubHubOptions } from './pubsubHub';
import { pubsubPlanner } from './pubsubPlan';
import { names, recorder, text, type Recorded } from './pubsubTestKit';
import { shownMessage } from './shownMessage';

const servers: RedisProcess[] = [];
const pools: Pool[] = [];
const clients: Redis[] = [];
let hub: PubSubHub | undefined;

afterEach(async () => {
  hub?.shutdown();
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await closeAdmins();
  for (const s of servers) await s.stop();
});

async function server(opts: Parameters<typeof startRedis>[0] = {}): Promise<RedisProcess> {
  const s = await startRedis(opts);
  servers.push(s);
  return s;
}

function hubFor(s: RedisProcess, opts: Partial<PubSubHubOptions> = {}, spec = specFor(s)): PubSubHub {
  const registry = profileRegistry({ p: spec });
  const pool = new Pool(registry);
  pools.push(pool);
  hub = new PubSubHub({ plan: pubsubPlanner({ profile: registry.resolve, pool }), ...opts });
  return hub;
}

/** redis-benchmark against `s`, its last argument read from `stdin`. */
function benchmark(s: RedisProcess, args: string[], stdin: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-benchmark', ['-h', s.host, '-p', String(s.port), '-q', ...args], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`redis-benchmark exited with ${code}`))));
    child.stdin.end(stdin);
  });
}

const live = (r: Recorded) => eventually(() => r.live(), 5000);
const numsub = async (admin: Redis, channel: string) => Number(((await admin.call('PUBSUB', 'NUMSUB', channel)) as unknown[])[1]);

describe('PubSubHub against a real redis-server', () => {
  it('shares one subscriber connection per node, unsubscribes what a leaving viewer alone wanted, and closes with the last', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const h = hubFor(s);
    const a = recorder();
    const b = recorder();
    const stopA = await h.watch('p', names({ channels: ['shared', 'only-a'] }), a.viewer);
    const stopB = await h.watch('p', names({ channels: ['shared'] }), b.viewer);
    await live(a);
    await live(b);
    expect(await clientsNamed(admin, 'cacheboard:pubsub:p')).toHaveLength(1);
    expect(await numsub(admin, 'shared')).toBe(1);
    expect(await admin.publish('shared', 'one')).toBe(1);
    expect(await eventually(() => a.messages().length === 1 && b.messages().length === 1)).toBe(true);

    stopA();
    expect(await eventually(async () => (await numsub(admin, 'only-a')) === 0)).toBe(true);
    expect(await numsub(admin, 'shared')).toBe(1);
    await admin.publish('shared', 'two');
    expect(await eventually(() => b.messages().length === 2)).toBe(true);
    expect(a.messages()).toHaveLength(1);

    stopB();
    expect(await eventually(async () => (await clientsNamed(admin, 'cacheboard:pubsub:p')).length === 0)).toBe(true);
    expect(h.counts()).toEqual({ nodes: 0, viewers: 0 });
  });

  it('routes messages by channel, pattern and shard channel, each viewer only what it asked for', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const h = hubFor(s);
    const byChannel = recorder();
    const byPattern = recorder();
    const byShard = recorder();
    await h.watch('p', names({ channels: ['news.eu'] }), byChannel.viewer);
    await h.watch('p', names({ patterns: ['news.*'] }), byPattern.viewer);
    await h.watch('p', names({ shardChannels: ['orders'] }), byShard.viewer);
    await Promise.all([live(byChannel), live(byPattern), live(byShard)]);
    await admin.publish('news.eu', 'a');
    await admin.publish('news.us', 'b');
    await admin.call('SPUBLISH', 'orders', 'c');
    expect(await eventually(() => byPattern.messages().length === 2 && byChannel.messages().length === 1 && byShard.messages().length === 1)).toBe(true);
    const [eu] = byChannel.messages();
    expect(eu?.kind).toBe('message');
    expect(text(eu!.channel)).toBe('news.eu');
    expect(byPattern.messages().map((m) => [m.kind, text(m.pattern!), text(m.channel), text(m.payload)])).toEqual([
      ['pmessage', 'news.*', 'news.eu', 'a'],
      ['pmessage', 'news.*', 'news.us', 'b'],
    ]);
    expect(byShard.messages()[0]?.kind).toBe('smessage');
    await new Promise((r) => setTimeout(r, 1100));
    expect(byPattern.stats.at(-1)).toMatchObject({ received: 2, delivered: 2, dropped: 0 });
  });

  it('escapes hostile channel names and payloads, and cuts a 1 MB payload at 4 KB with its full length', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const h = hubFor(s);
    const r = recorder();
    const hostile = Buffer.concat([Buffer.from('<img src=x onerror=alert(1)>'), Buffer.from([0xff]), Buffer.from('\u202Egpj.exe')]);
    await h.watch('p', names({ channels: [hostile, 'big'] }), r.viewer);
    await live(r);
    await admin.publish(hostile, Buffer.from('<script>alert(2)</script>\r\n\xfe', 'latin1'));
    await admin.publish('big', 'x'.repeat(1024 * 1024));
    expect(await eventually(() => r.messages().length === 2)).toBe(true);
    const [odd, big] = r.messages().map(shownMessage);
    expect(odd?.channel.text).toBe(String.raw`<img src=x onerror=alert(1)>\xff\u202egpj.exe`);
    expect(odd?.payload.text).toBe(String.raw`<script>alert(2)</script>\r\n\xfe`);
    expect(big?.payload).toEqual({ text: 'x'.repeat(4096), bytes: 1024 * 1024, truncated: true });
  });

  it('counts exactly under a 100k msg/s publisher: received = delivered + dropped for a slow and a fast viewer', async () => {
    const s = await server();
    const h = hubFor(s);
    const fast = recorder();
    let calls = 0;
    const slow = recorder(() => ++calls % 4 !== 0); // congested three ticks in four
    await h.watch('p', names({ channels: ['flood'] }), fast.viewer);
    await h.watch('p', names({ channels: ['flood'] }), slow.viewer);
    await Promise.all([live(fast), live(slow)]);
    const n = 300_000;
    const flood = await publishFlood(s, { channel: 'flood', count: n, perSecond: 100_000 });
    // One subscriber connection for both viewers: every PUBLISH reached exactly one receiver.
    expect(flood.receivers).toBe(n);
    const settled = (r: Recorded) => r.stats.at(-1)?.received === n;
    expect(await eventually(() => settled(fast) && settled(slow), 15_000)).toBe(true);
    for (const r of [fast, slow]) {
      const c = r.stats.at(-1)!;
      expect(c.delivered + c.dropped).toBe(n);
      expect(r.messages()).toHaveLength(c.delivered);
      expect(Math.max(...r.batches.map((b) => b.items.length))).toBeLessThanOrEqual(1000);
    }
    expect(slow.stats.at(-1)!.dropped).toBeGreaterThan(fast.stats.at(-1)!.dropped);
    console.log(
      `flood: ${n} messages in ${flood.ms} ms (${Math.round((n * 1000) / flood.ms)} msg/s); fast ${JSON.stringify(fast.stats.at(-1))}; slow ${JSON.stringify(slow.stats.at(-1))}`,
    );
  });

  it('a viewer that keeps up gets every message, in order', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const r = recorder();
    // Bounds no tick can reach: under load (a late tick) 20,000 messages may all land in one, and the test is of order, not of the bound.
    await hubFor(s, { maxPerTick: 100_000, maxBytesPerTick: 64 * 1024 * 1024 }).watch('p', names({ channels: ['seq'] }), r.viewer);
    await live(r);
    const n = 20_000;
    for (let i = 0; i < n; i += 1000) {
      const p = admin.pipeline();
      for (let j = i; j < i + 1000; j++) p.publish('seq', String(j));
      await p.exec();
    }
    expect(await eventually(() => r.messages().length === n, 10_000)).toBe(true);
    expect(r.messages().every((m, i) => text(m.payload) === String(i))).toBe(true);
    expect(r.last()).toMatchObject({ offered: n, delivered: n, dropped: 0 });
  });

  it('stays within its bounds when a viewer never takes anything: 320 MB of payloads cost kept bytes only', async () => {
    // No output buffer limit: the GCs below stall this process, and Redis would otherwise drop a subscriber that lags.
    const s = await server({ args: ['--client-output-buffer-limit', 'pubsub 0 0 0'] });
    const r = recorder(() => true);
    await hubFor(s).watch('p', names({ channels: ['huge'] }), r.viewer);
    await live(r);
    // What is retained, not garbage: two full collections (the second waits for the first's
    // buffers to be freed), so a sample costs tens of ms: a few a second.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const used = () => {
      gc();
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const payload = Buffer.alloc(8 * 1024 * 1024, 0x61);
    const before = used();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, used())), 200);
    try {
      // Published by another process, so what this one holds is the hub's alone.
      await benchmark(s, ['-n', '40', '-c', '1', '-x', 'PUBLISH', 'huge'], payload);
      expect(await eventually(() => r.stats.at(-1)?.received === 40, 15_000)).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, used());
    const grew = peak - before;
    expect(r.stats.at(-1)).toMatchObject({ received: 40, delivered: 0, dropped: 40 });
    // Were payloads read whole, one alone would hold 8 MiB.
    expect(grew).toBeLessThan(4 * 1024 * 1024);
    console.log(
      `320 MB published to a viewer that never takes: retained heap + buffers peaked ${(grew / 1048576).toFixed(2)} MiB above the start (after gc, 5 samples a second)`,
    );
  });

  it('ends the viewer with NOPERM naming the channel when the ACL refuses it', async () => {
    const s = await server();
    const admin = await adminClient(s);
    await admin.call('ACL', 'SETUSER', 'listener', 'on', '>pw', 'resetchannels', '&allowed:*', '+@all', '~*');
    const r = recorder();
    const h = hubFor(s, {}, specFor(s, { username: 'listener', password: 'pw' }));
    await h.watch('p', names({ channels: ['allowed:1', 'secret'] }), r.viewer);
    expect(await eventually(() => r.ended.length === 1)).toBe(true);
    expect(r.ended[0]).toMatchObject({ code: 'NOPERM' });
    expect(r.ended[0]?.message).toContain('"secret"');
    expect(await eventually(() => h.counts().nodes === 0)).toBe(true);
  });

  it('marks a gap when the server restarts, subscribes again and goes on', async () => {
    const s = await server();
    const r = recorder();
    await hubFor(s).watch('p', names({ channels: ['again'] }), r.viewer);
    await live(r);
    await s.stop();
    expect(await eventually(() => r.states.some((x) => x.state === 'reconnecting'), 5000)).toBe(true);
    const back = await spawnRedisServer({ port: s.port });
    servers.push(back);
    expect(await eventually(() => r.gaps.length === 1 && r.live(), 10_000)).toBe(true);
    const after = new Redis({ host: back.host, port: back.port });
    clients.push(after);
    expect(await after.publish('again', 'back')).toBe(1);
    expect(await eventually(() => r.messages().length === 1)).toBe(true);
  });

  it('an unreachable node ends the stream with an error naming it', async () => {
    const s = await server();
    const h = hubFor(s);
    await s.stop();
    const r = recorder();
    await h.watch('p', names({ channels: ['x'] }), r.viewer);
    expect(await eventually(() => r.ended.length === 1, 5000)).toBe(true);
    expect(r.ended[0]?.message).toContain(String(s.port));
    expect(h.counts()).toEqual({ nodes: 0, viewers: 0 });
  });
});
