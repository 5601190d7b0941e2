import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, eventually, startRedis, type RedisProcess } from '../../../testing/redis';
import { spawnRedisServer } from '../redisProcess/spawnRedisServer';
import { MonitorHub } from './monitorHub';
import { closeTargets, recorder, targetFor, type Recorded } from './monitorTestKit';
import type { MonitorFilter } from './monitorFilter';

const servers: RedisProcess[] = [];
const clients: Redis[] = [];
let hub: MonitorHub | undefined;

afterEach(() => hub?.shutdown());
afterAll(async () => {
  for (const c of clients) c.disconnect();
  closeTargets();
  await closeAdmins();
  for (const s of servers) await s.stop();
});

async function server(port?: number): Promise<RedisProcess> {
  const s = await startRedis(port === undefined ? {} : { port });
  servers.push(s);
  return s;
}

function hubFor(s: RedisProcess, opts: Partial<ConstructorParameters<typeof MonitorHub>[0]> = {}): MonitorHub {
  const target = targetFor(s);
  hub = new MonitorHub({ resolve: () => Promise.resolve(target), clientListMs: 100, ...opts });
  return hub;
}

const ALL: MonitorFilter = { sampleEvery: 1, hideOwn: true };
/** MONITOR clients carry flag O in CLIENT LIST (Redis 7.0 has no CLIENT LIST TYPE monitor). */
const monitors = async (admin: Redis) => ((await admin.client('LIST')) as string).split('\n').filter((l) => /\bflags=\w*O/.test(l)).length;
const live = (r: Recorded) => eventually(() => r.states.includes('live'), 5000);

describe('MonitorHub against a real redis-server', () => {
  it('ends a MONITOR the ACL refuses NOPERM, read by the one refusal reader, for the page to say in one line', async () => {
    const s = await server();
    await (await adminClient(s)).call('ACL', 'SETUSER', 'default', '-monitor');
    const r = recorder();
    await hubFor(s).watch('p', undefined, ALL, r.viewer);
    expect(await eventually(() => r.ended.length > 0, 5000)).toBe(true);
    expect(r.ended[0]?.err).toMatchObject({ code: 'NOPERM', message: expect.stringContaining('refused MONITOR: NOPERM') });
  });

  it('shares one MONITOR connection between two viewers and closes it when the last leaves', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const h = hubFor(s);
    const a = recorder();
    const b = recorder();
    const stopA = await h.watch('p', undefined, ALL, a.viewer);
    const stopB = await h.watch('p', undefined, ALL, b.viewer);
    await live(a);
    expect(await eventually(async () => (await monitors(admin)) === 1)).toBe(true);
    stopA();
    await admin.set('after-a-left', '1');
    expect(await eventually(() => b.lines().some((l) => l.args[0] === 'after-a-left'))).toBe(true);
    expect(await monitors(admin)).toBe(1);
    stopB();
    expect(await eventually(async () => (await monitors(admin)) === 0)).toBe(true);
    expect(h.counts()).toEqual({ nodes: 0, viewers: 0 });
  });

  it('shows tricky arguments as the escaped text the server sent, a 1 MB value cut at 1 KB', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const r = recorder();
    await hubFor(s).watch('p', undefined, { ...ALL, keyGlob: 'odd:*' }, r.viewer);
    await live(r);
    await admin.set('odd:html', '<script>alert(1)</script>');
    await admin.set(Buffer.from('odd:\xff\xfe\r\n"q"', 'latin1'), 'line1\nline2');
    await admin.set('odd:big', 'x'.repeat(1024 * 1024));
    expect(await eventually(() => r.lines().length === 3)).toBe(true);
    const [html, bin, big] = r.lines();
    expect(html?.args).toEqual(['odd:html', '<script>alert(1)</script>']);
    expect(bin?.args).toEqual([String.raw`odd:\xff\xfe\r\n\"q\"`, String.raw`line1\nline2`]);
    expect(big?.truncated).toBe(true);
    expect(big?.args[1]?.length).toBe(1024);
  });

  it('hides Cacheboard’s own connections by default and shows them when asked', async () => {
    const s = await server();
    const ours = new Redis({ host: s.host, port: s.port, connectionName: 'cacheboard:shared:x' });
    clients.push(ours);
    await ours.ping();
    const h = hubFor(s);
    const hidden = recorder();
    const shown = recorder();
    await h.watch('p', undefined, { ...ALL, commands: ['ECHO'] }, hidden.viewer);
    await h.watch('p', undefined, { ...ALL, commands: ['ECHO'], hideOwn: false }, shown.viewer);
    await live(hidden);
    await new Promise((res) => setTimeout(res, 300)); // one CLIENT LIST read has named our connection
    await ours.echo('from-us');
    const admin = await adminClient(s);
    await admin.echo('from-them');
    expect(await eventually(() => shown.lines().length === 2)).toBe(true);
    expect(await eventually(() => hidden.lines().length === 1)).toBe(true);
    expect(hidden.lines()[0]?.args).toEqual(['from-them']);
  });

  it('a slow viewer loses lines, counted exactly, while a fast one in parallel gets every line', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const h = hubFor(s, { maxLinesPerTick: 100_000 });
    const fast = recorder();
    let calls = 0;
    const slow = recorder(() => ++calls % 4 !== 0); // congested three ticks in four
    const filter = { ...ALL, keyGlob: 'load:*' };
    await h.watch('p', undefined, filter, fast.viewer);
    await h.watch('p', undefined, filter, slow.viewer);
    await live(fast);
    const n = 20_000;
    for (let i = 0; i < n; i += 1000) {
      const p = admin.pipeline();
      for (let j = i; j < i + 1000; j++) p.set(`load:${j}`, 'v');
      await p.exec();
    }
    expect(await eventually(() => fast.last()?.matched === n && slow.last()?.matched === n, 10_000)).toBe(true);
    await new Promise((res) => setTimeout(res, 200));
    const f = fast.last()!;
    const sl = slow.last()!;
    expect(f.dropped).toBe(0);
    expect(fast.lines()).toHaveLength(n);
    expect(new Set(fast.lines().map((l) => l.args[0])).size).toBe(n);
    expect(sl.dropped).toBeGreaterThan(0);
    expect(sl.delivered + sl.dropped).toBe(n);
    expect(slow.lines()).toHaveLength(sl.delivered);
  });

  it('hands a viewer at most maxLinesPerTick lines a tick and counts the rest as dropped', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const r = recorder();
    await hubFor(s, { maxLinesPerTick: 50, tickMs: 200 }).watch('p', undefined, { ...ALL, keyGlob: 'cap:*' }, r.viewer);
    await live(r);
    const p = admin.pipeline();
    for (let i = 0; i < 2000; i++) p.set(`cap:${i}`, 'v');
    await p.exec();
    expect(await eventually(() => r.last()?.matched === 2000, 5000)).toBe(true);
    await new Promise((res) => setTimeout(res, 300));
    const last = r.last()!;
    expect(Math.max(...r.batches.map((b) => b.lines.length))).toBeLessThanOrEqual(50);
    expect(last.dropped).toBeGreaterThan(0);
    expect(last.delivered + last.dropped).toBe(2000);
    expect(r.lines()).toHaveLength(last.delivered);
  });

  it('samples one line in N', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const r = recorder();
    await hubFor(s).watch('p', undefined, { ...ALL, keyGlob: 's:*', sampleEvery: 10 }, r.viewer);
    await live(r);
    const p = admin.pipeline();
    for (let i = 0; i < 1000; i++) p.set(`s:${i}`, 'v');
    await p.exec();
    expect(await eventually(() => r.last()?.matched === 100)).toBe(true);
  });

  it('marks a gap with both times when the server restarts, then resumes', async () => {
    const s = await server();
    const r = recorder();
    await hubFor(s).watch('p', undefined, { ...ALL, keyGlob: 'g:*' }, r.viewer);
    await live(r);
    const before = await adminClient(s);
    await before.set('g:before', '1');
    expect(await eventually(() => r.lines().length === 1)).toBe(true);
    before.disconnect();
    await s.stop();
    expect(await eventually(() => r.states.includes('reconnecting'), 5000)).toBe(true);
    const again = await spawnRedisServer({ port: s.port });
    servers.push(again);
    expect(await eventually(() => r.gaps.length === 1, 10_000)).toBe(true);
    const gap = r.gaps[0]!;
    expect(gap.to).toBeGreaterThan(gap.from);
    expect(gap.from).toBeCloseTo(r.lines()[0]!.ts, -3);
    const after = new Redis({ host: again.host, port: again.port });
    clients.push(after);
    await after.set('g:after', '1');
    expect(await eventually(() => r.lines().length === 2, 5000)).toBe(true);
    expect(r.lines()[1]?.args[0]).toBe('g:after');
  });

  it('reports lines per second, top commands, hot keys and the MONITOR client omem', async () => {
    const s = await server();
    const admin = await adminClient(s);
    const r = recorder();
    await hubFor(s, { statsMs: 300 }).watch('p', undefined, ALL, r.viewer);
    await live(r);
    const p = admin.pipeline();
    for (let i = 0; i < 500; i++) p.get(i % 5 === 0 ? 'hot:key' : `cold:${i}`);
    await p.exec();
    expect(await eventually(() => r.stats.some((x) => x.received >= 500 && x.omem !== undefined), 5000)).toBe(true);
    const last = r.stats.at(-1)!;
    expect(last.topCommands[0]?.name).toBe('GET');
    expect(last.topKeys[0]).toEqual({ name: 'hot:key', count: 100 });
    expect(last.omem).toBeLessThan(1024 * 1024);
  });

  it('ends the stream with the session limit message', async () => {
    const s = await server();
    const r = recorder();
    await hubFor(s, { sessionLimitMs: 300 }).watch('p', undefined, ALL, r.viewer);
    expect(await eventually(() => r.ended.length === 1, 3000)).toBe(true);
    expect(r.ended[0]?.message).toMatch(/MONITOR stopped after/);
  });

  it('an unreachable node ends the stream with an error naming it', async () => {
    const s = await server();
    await s.stop();
    const r = recorder();
    await hubFor(s).watch('p', undefined, ALL, r.viewer);
    expect(await eventually(() => r.ended.length === 1, 5000)).toBe(true);
    expect(String((r.ended[0]?.err as Error).message)).toContain(String(s.port));
  });
});
