import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyMeta } from '../../../app/schemas/keys';
import { parseInfo } from '../../core/info/parseInfo';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { download, keysValuesRpc, type KeysValuesRpc } from './keysValuesRpcTestKit';

const redis = useRedis();
let admin: Redis;
let rpc: KeysValuesRpc;
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const get = (key: string | Buffer, profileId = 'local'): Promise<KeyMeta> => rpc.as('analyst').invoke('keys.get', { profileId, key: b64(key) });

beforeAll(async () => {
  admin = await adminClient(redis());
  // The analyst's Redis user may read anything but not CONFIG: eviction policy unknown, the rest still there.
  await admin.call('ACL', 'SETUSER', 'reader', 'on', '>reader-pw', '~*', '+@all', '-config');
  rpc = keysValuesRpc([
    { id: 'local', source: 'config', spec: specFor(redis()) },
    { id: 'acl', source: 'config', spec: specFor(redis(), { name: 'acl' }), analyst: { username: 'reader', password: 'reader-pw' } },
  ]);
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

describe('keys.get', () => {
  it('every native type: its type, encoding, O(1) length, memory, TTL and idle time', async () => {
    const key = Buffer.from([0x6b, 0xff, 0x0d, 0x0a]);
    await admin.set(key, 'hello', 'PX', 60_000);
    await admin.hset('t:hash', 'a', '1', 'b', '2');
    await admin.rpush('t:list', 'a', 'b', 'c');
    await admin.sadd('t:set', 'a', 'b', 'c', 'd');
    await admin.zadd('t:zset', 1, 'a');
    await admin.xadd('t:stream', '*', 'f', 'v');
    const cases: Array<[string | Buffer, string, number]> = [
      [key, 'string', 5],
      ['t:hash', 'hash', 2],
      ['t:list', 'list', 3],
      ['t:set', 'set', 4],
      ['t:zset', 'zset', 1],
      ['t:stream', 'stream', 1],
    ];
    for (const [k, type, length] of cases) {
      const meta = await get(k);
      expect(meta).toMatchObject({ exists: true, type, length, moduleType: null, dumpBytes: null, freq: null, evictionPolicy: 'noeviction' });
      expect(meta.encoding).toBe(String(await admin.object('ENCODING', k)));
      expect(meta.memory).toBeGreaterThan(0);
      expect(meta.idleSeconds).not.toBeNull();
      expect(meta.key.b64).toBe(Buffer.from(k).toString('base64'));
    }
    const withTtl = await get(key);
    expect(withTtl.ttlMs).toBeGreaterThan(50_000);
    expect(withTtl.key.text).toBe('k\\xff\\r\\n');
    expect((await get('t:hash')).ttlMs).toBe(-1);
  });

  it('a key that does not exist: exists false, every field null', async () => {
    const meta = await get('no:such:key');
    expect(meta).toMatchObject({ exists: false, type: null, encoding: null, length: null, memory: null, ttlMs: null, freq: null, idleSeconds: null });
  });

  it('under an LFU policy: OBJECT FREQ, no idle time', async () => {
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lfu');
    try {
      await admin.set('lfu:key', 'v');
      const meta = await get('lfu:key');
      expect(meta).toMatchObject({ evictionPolicy: 'allkeys-lfu', idleSeconds: null });
      expect(meta.freq).toBeGreaterThanOrEqual(0);
    } finally {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
    }
  });

  it("an analyst reads as the profile's analyst Redis user: CONFIG refused by its ACL leaves the policy unknown, not the call failed", async () => {
    await admin.set('acl:key', 'value');
    const meta = await get('acl:key', 'acl');
    expect(meta).toMatchObject({ exists: true, type: 'string', length: 5, evictionPolicy: null });
    expect(meta.idleSeconds).not.toBeNull();
    const users = String(await admin.client('LIST'))
      .split('\n')
      .filter((l) => / user=reader /.test(l));
    expect(users.length).toBeGreaterThan(0);
  });
});

describe('keys.read and keys.streamInfo through the dispatcher', () => {
  it('a page of the wrong type is refused on page.type, naming the real type', async () => {
    await admin.set('plain', 'x');
    const err = await rpc
      .as('analyst')
      .invoke('keys.read', { profileId: 'local', key: b64('plain'), page: { type: 'list' } })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'VALIDATION', field: 'page.type' });
    expect((err as Error).message).toMatch(/is a string/);
  });

  it('a stream with a group, a consumer and pending entries', async () => {
    const key = Buffer.from('orders:\u202E', 'utf8');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(String(await admin.xadd(key, '*', 'n', String(i))));
    const first = ids[0];
    await admin.xgroup('CREATE', key, Buffer.from([0xff, 0x67]), '0');
    await admin.xgroup('CREATE', key, 'idle-group', '$');
    await admin.xreadgroup('GROUP', Buffer.from([0xff, 0x67]), 'worker\r\n1', 'COUNT', 25, 'STREAMS', key, '>');
    const info = await rpc.as('analyst').invoke('keys.streamInfo', { profileId: 'local', key: b64(key) });
    expect(info).toMatchObject({ length: 30, firstId: first, lastId: ids[29], lastGeneratedId: ids[29] });
    const g = info.groups.find((x) => Buffer.from(x.name.b64, 'base64').equals(Buffer.from([0xff, 0x67])));
    expect(g).toMatchObject({ consumers: 1, pending: 25, lag: 5 });
    expect(g?.consumerList).toEqual([expect.objectContaining({ name: expect.objectContaining({ text: 'worker\\r\\n1' }), pending: 25 })]);
    expect(g?.pendingEntries).toHaveLength(20);
    expect(g?.pendingEntries[0]).toMatchObject({ id: first, deliveries: 1 });
    expect(info.groups.find((x) => x.name.text === 'idle-group')).toMatchObject({ consumers: 0, pending: 0, consumerList: [], pendingEntries: [] });
    await expect(rpc.as('analyst').invoke('keys.streamInfo', { profileId: 'local', key: b64('plain') })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'key',
    });
  });
});

describe('keys.download', () => {
  const value = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 17 }, (_, i) => (i * 131 + (i >> 11)) % 256));

  it('a 3 MB binary value reassembles to identical bytes, in chunks of at most 256 KB, none dropped', async () => {
    await admin.set('blob', value);
    const got = await download(rpc.as('analyst'), { profileId: 'local', key: b64('blob') });
    expect(got.error).toBeUndefined();
    expect(got.dropped).toBe(0);
    expect(got.bytes.equals(value)).toBe(true);
    expect(got.events.at(-1)).toMatchObject({ done: true, total: value.length });
    expect(Math.max(...got.events.map((e) => Buffer.from(e.chunk, 'base64').length))).toBe(256 * 1024);
  });

  it('a congested transport pauses the download instead of dropping chunks', async () => {
    const wire = rpc.wire('ops');
    let batches = 0;
    const pending = download(rpc.as('ops'), { profileId: 'local', key: b64('blob') }, () => {
      batches += 1;
      if (batches === 2) {
        // Hold the transport for a while: the producer must wait, not fill the queue.
        wire.setCongested(true);
        setTimeout(() => wire.setCongested(false), 300);
      }
    });
    const got = await pending;
    expect(got.error).toBeUndefined();
    expect(got.dropped).toBe(0);
    expect(got.bytes.equals(value)).toBe(true);
  });

  it('the value changing length mid-way ends the stream with CONFLICT, not a corrupt file', async () => {
    await admin.set('moving', value);
    const wire = rpc.wire('ops');
    wire.setCongested(true);
    const pending = download(rpc.as('ops'), { profileId: 'local', key: b64('moving') });
    // Two chunks are read and wait for the transport; the value grows meanwhile.
    await new Promise((r) => setTimeout(r, 100));
    await admin.append('moving', 'more');
    wire.setCongested(false);
    const got = await pending;
    expect(got.error).toMatchObject({ code: 'CONFLICT' });
    expect(got.error?.message).toMatch(/incomplete/);
    expect(got.events.at(-1)?.done ?? false).toBe(false);
  });

  it('a key that is not a string does not download', async () => {
    const got = await download(rpc.as('analyst'), { profileId: 'local', key: b64('t:hash') });
    expect(got.error).toMatchObject({ code: 'VALIDATION', field: 'key' });
  });
});

describe('never an unbounded read', () => {
  it('opening huge values of every type runs no GET, HGETALL, SMEMBERS, KEYS, and no LRANGE, XRANGE or ZRANGE beyond the page', async () => {
    const p = admin.pipeline();
    p.set('huge:string', Buffer.alloc(8 * 1024 * 1024, 0x61));
    for (let i = 0; i < 50_000; i += 1000) {
      const n = Array.from({ length: 1000 }, (_, j) => String(i + j));
      p.hset('huge:hash', ...n.flatMap((x) => [x, x]));
      p.rpush('huge:list', ...n);
      p.sadd('huge:set', ...n);
      p.zadd('huge:zset', ...n.flatMap((x) => [x, x]));
    }
    for (let i = 0; i < 20_000; i++) p.xadd('huge:stream', '*', 'n', String(i));
    await p.exec();
    await admin.config('RESETSTAT');
    const monitor = await admin.duplicate().monitor();
    const seen: string[][] = [];
    monitor.on('monitor', (_t: string, args: string[]) => seen.push(args));
    const pages: Record<string, Record<string, unknown>> = {
      'huge:string': { type: 'string' },
      'huge:hash': { type: 'hash' },
      'huge:list': { type: 'list', fromEnd: true },
      'huge:set': { type: 'set' },
      'huge:zset': { type: 'zset', by: 'score', rev: true },
      'huge:stream': { type: 'stream', rev: true },
    };
    for (const [key, page] of Object.entries(pages)) {
      await get(key);
      await rpc.as('analyst').invoke('keys.read', { profileId: 'local', key: b64(key), page: page as never });
    }
    await rpc.as('analyst').invoke('keys.read', { profileId: 'local', key: b64('huge:zset'), page: { type: 'zset', start: 40_000 } });
    await rpc.as('analyst').invoke('keys.read', { profileId: 'local', key: b64('huge:list'), page: { type: 'list', start: 10_000, count: 1000 } });
    expect(await eventually(() => seen.some((a) => a[0]?.toLowerCase() === 'zrange' && a[2] === '40000'))).toBe(true);
    monitor.disconnect();
    const stats = parseInfo(String(await admin.info('commandstats')));
    const called = Object.keys(stats.commandstats ?? {}).map((k) => k.replace(/^cmdstat_/, ''));
    for (const banned of ['get', 'hgetall', 'hkeys', 'hvals', 'smembers', 'keys', 'sort', 'dump']) expect(called).not.toContain(banned);
    expect(called).toEqual(expect.arrayContaining(['getrange', 'hscan', 'lrange', 'sscan', 'zrange', 'xrevrange']));
    // Every range window is at most the largest page (1,000), and every XRANGE/XREVRANGE has a COUNT.
    for (const args of seen) {
      const cmd = (args[0] ?? '').toLowerCase();
      if (cmd === 'lrange' || (cmd === 'zrange' && !args.some((a) => a.toUpperCase() === 'BYSCORE'))) {
        expect(Number(args[3]) - Number(args[2]) + 1, args.join(' ')).toBeLessThanOrEqual(1000);
        // Both ends on the same side: "0 -1" (the whole value) would pass the width check.
        expect(Number(args[2]) >= 0 === Number(args[3]) >= 0, args.join(' ')).toBe(true);
      }
      if (cmd === 'zrange' && args.some((a) => a.toUpperCase() === 'BYSCORE')) expect(args.map((a) => a.toUpperCase())).toContain('LIMIT');
      if (cmd === 'xrange' || cmd === 'xrevrange' || cmd === 'hscan' || cmd === 'sscan') expect(args.map((a) => a.toUpperCase())).toContain('COUNT');
      if (cmd === 'getrange') expect(Number(args[3]) - Number(args[2]) + 1).toBeLessThanOrEqual(1024 * 1024);
    }
  });
});
