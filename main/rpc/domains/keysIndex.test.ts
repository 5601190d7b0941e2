import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { b64, followIndex, keysRpc, type KeysRpc } from './keysIndexTestKit';

const redis = useRedis();
let rpc: KeysRpc;
let tiny: KeysRpc;
let admin: Redis;

const USERS = 1_500;
const SESSIONS = 700;
/** Odd names: binary, CR/LF, no separator, empty segments, a lone separator. */
const ODD: Buffer[] = [
  Buffer.from([0xff, 0x3a, 0x01]), // \xff:\x01 -> folder "\xff:"
  Buffer.from('bin:\r\n', 'latin1'),
  Buffer.from('bin:\xffz', 'latin1'),
  Buffer.from('plain', 'latin1'),
  Buffer.from('a::b', 'latin1'),
  Buffer.from(':', 'latin1'),
  Buffer.from('a:', 'latin1'),
];

beforeAll(async () => {
  admin = await adminClient(redis());
  const p = admin.pipeline();
  for (let i = 0; i < USERS; i++) p.set(`user:${i}`, 'v');
  for (let i = 0; i < SESSIONS; i++) p.hset(`session:${i % 7}:${i}`, 'f', 'v');
  for (let i = 0; i < 20; i++) p.set(`ttl:${i}`, 'v', 'EX', 1000);
  for (const k of ODD) p.set(k, 'x');
  await p.exec();
  const profile = { id: 'local', source: 'config' as const, spec: specFor(redis()) };
  // Ops: these tests refresh indexes, which analysts may not (keysIndexShared.test.ts).
  rpc = keysRpc([profile], { role: 'ops' });
  tiny = keysRpc([profile], { budgetBytes: 64 * 1024, role: 'ops' });
});
afterAll(async () => {
  await Promise.all([rpc.close(), tiny.close()]);
  await closeAdmins();
});

const TOTAL = USERS + SESSIONS + 20 + ODD.length;

async function build(on: KeysRpc, separator?: string) {
  const { jobId } = await on.client.invoke('keys.index.start', { profileId: 'local', ...(separator === undefined ? {} : { separator }) });
  const { events, error } = await followIndex(on.client, jobId);
  expect(error).toBeUndefined();
  return events;
}

const tree = (on: KeysRpc, prefix = '', extra: Record<string, unknown> = {}) =>
  on.client.invoke('keys.tree', { profileId: 'local', prefix: b64(prefix), ...extra });

describe('the namespace tree over the contract', () => {
  it("before any build the state is 'none' and the tree is empty", async () => {
    const t = await tree(rpc);
    expect(t.state.status).toBe('none');
    expect(t.nodes).toEqual([]);
  });

  it('counts every key once, per folder, with binary names, empty segments and keys without a separator', async () => {
    const events = await build(rpc);
    const end = events.at(-1);
    expect(end).toMatchObject({ kind: 'done', state: { status: 'ready', complete: true, scanned: TOTAL, total: TOTAL, names: 'indexed' } });
    const root = await tree(rpc);
    expect(root.state).toMatchObject({ status: 'ready', complete: true, scanned: TOTAL });
    const byName = new Map(root.nodes.map((n) => [n.ref.b64, n]));
    expect(byName.get(b64('user:'))).toMatchObject({ kind: 'folder', count: USERS, label: 'user' });
    expect(byName.get(b64('session:'))).toMatchObject({ kind: 'folder', count: SESSIONS });
    expect(byName.get(b64('ttl:'))?.count).toBe(20);
    expect(byName.get(b64('bin:'))?.count).toBe(2);
    expect(byName.get(b64(Buffer.from([0xff, 0x3a]))))?.toMatchObject({ kind: 'folder', count: 1, label: '\\xff' });
    expect(byName.get(b64('a:'))?.count).toBe(2); // a::b and a: itself
    expect(byName.get(b64(':'))?.count).toBe(1); // ":" is an empty segment then nothing
    expect(byName.get(b64('plain'))).toMatchObject({ kind: 'key', count: 1 });
    expect(root.nodes.reduce((a, n) => a + n.count, 0)).toBe(TOTAL);
    expect(root.totalNodes).toBe(root.nodes.length);

    const a = await tree(rpc, 'a:');
    expect(a.nodes.map((n) => [n.kind, n.ref.b64, n.count])).toEqual([
      ['folder', b64('a::'), 1],
      ['key', b64('a:'), 1],
    ]);
    const bin = await tree(rpc, 'bin:');
    expect(bin.nodes.map((n) => n.ref.b64).sort()).toEqual([b64('bin:\r\n'), b64('bin:\xffz')].sort());
    expect(bin.nodes.find((n) => n.ref.b64 === b64('bin:\r\n'))?.label).toBe('\\r\\n');

    const sessions = await tree(rpc, 'session:', { sort: 'count' });
    expect(sessions.nodes).toHaveLength(7);
    expect(sessions.nodes.reduce((a, n) => a + n.count, 0)).toBe(SESSIONS);
    const counts = sessions.nodes.map((n) => n.count);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    const paged = await tree(rpc, 'user:', { offset: 10, limit: 5 });
    expect(paged.totalNodes).toBe(USERS);
    const names = [...Array(USERS).keys()].map((i) => `user:${i}`).sort();
    expect(paged.nodes.map((n) => Buffer.from(n.ref.b64, 'base64').toString())).toEqual(names.slice(10, 15));
  });

  it('another separator is another index', async () => {
    await build(rpc, '::');
    const t = await rpc.client.invoke('keys.tree', { profileId: 'local', separator: '::', prefix: '' });
    expect(t.nodes.find((n) => n.ref.b64 === b64('a::'))?.count).toBe(1);
    expect(t.state.scanned).toBe(TOTAL);
  });

  it('Refresh rescans and replaces the index; keys added since are counted', async () => {
    await admin.set('user:extra', 'v');
    await build(rpc);
    const root = await tree(rpc);
    expect(root.nodes.find((n) => n.ref.b64 === b64('user:'))?.count).toBe(USERS + 1);
    await admin.del('user:extra');
    await build(rpc);
  });

  it('lists a glob from the index (literal prefix), with type and no-TTL filters, page by page', async () => {
    const list = (extra: Record<string, unknown>) => rpc.client.invoke('keys.list', { profileId: 'local', ...extra } as never);
    const first = await list({ match: b64('user:1*'), limit: 50 });
    const want = [...Array(USERS).keys()]
      .map((i) => `user:${i}`)
      .filter((k) => k.startsWith('user:1'))
      .sort();
    expect(first).toMatchObject({ source: 'index', total: want.length, complete: false });
    const got = first.keys.map((k) => Buffer.from(k.key.b64, 'base64').toString());
    let cursor = first.cursor;
    while (cursor !== null) {
      const next = await list({ match: b64('user:1*'), limit: 50, cursor });
      got.push(...next.keys.map((k) => Buffer.from(k.key.b64, 'base64').toString()));
      cursor = next.cursor;
    }
    expect(got).toEqual(want);
    expect(first.keys[0]).toMatchObject({ type: 'string', ttlMs: -1 });
    const hashes = await list({ match: b64('*'), type: 'hash', limit: 1000 });
    expect(hashes.keys).toHaveLength(SESSIONS);
    const ttl = await list({ match: b64('ttl:*') });
    expect(ttl.keys).toHaveLength(20);
    expect(ttl.keys.every((k) => (k.ttlMs ?? 0) > 0)).toBe(true);
    expect((await list({ match: b64('ttl:*'), noTtl: true })).keys).toHaveLength(0);
    const bin = await list({ match: b64('bin:[\r\xff]*') });
    expect(bin.keys.map((k) => k.key.b64).sort()).toEqual([b64('bin:\r\n'), b64('bin:\xffz')].sort());
    await expect(list({ match: b64('*'), sort: 'ttl' })).rejects.toMatchObject({ code: 'VALIDATION', field: 'sort' });
  });

  it('the deep index records type, TTL and memory per key: the keyspace sorts by TTL and by memory', async () => {
    const { jobId } = await rpc.client.invoke('keys.index.start', { profileId: 'local', deep: true });
    const { events } = await followIndex(rpc.client, jobId);
    expect(events.at(-1)).toMatchObject({ kind: 'done', state: { deep: true, deepDone: TOTAL, complete: true } });
    const byTtl = await rpc.client.invoke('keys.list', { profileId: 'local', match: b64('*'), sort: 'ttl', limit: 25 });
    expect(byTtl).toMatchObject({ source: 'deep', total: TOTAL });
    // The 20 keys with a TTL come first, soonest first; then keys without one.
    const ttls = byTtl.keys.map((k) => k.ttlMs as number);
    expect(ttls.slice(0, 20).every((t) => t > 0)).toBe(true);
    expect(ttls.slice(0, 20)).toEqual([...ttls.slice(0, 20)].sort((a, b) => a - b));
    expect(ttls.slice(20)).toEqual([-1, -1, -1, -1, -1]);
    const byMem = await rpc.client.invoke('keys.list', { profileId: 'local', match: b64('*'), sort: 'memory', order: 'desc', limit: 1000, type: 'hash' });
    expect(byMem.total).toBe(SESSIONS);
    const mem = byMem.keys.map((k) => k.memory as number);
    expect(mem).toEqual([...mem].sort((a, b) => b - a));
    expect(byMem.cursor).toBeNull();
    const page2 = await rpc.client.invoke('keys.list', { profileId: 'local', match: b64('user:*'), sort: 'memory', limit: 1000 });
    const next = await rpc.client.invoke('keys.list', { profileId: 'local', match: b64('user:*'), sort: 'memory', limit: 1000, cursor: page2.cursor ?? '' });
    expect(page2.keys.length + next.keys.length).toBe(USERS);
  });

  it("a folder's type mix and memory come from a sample; a whole-folder sample is exact", async () => {
    const s = await rpc.client.invoke('keys.folderStats', { profileId: 'local', prefix: b64('session:'), samples: 1000 });
    expect(s).toMatchObject({ sampled: SESSIONS, count: SESSIONS, types: [{ type: 'hash', count: SESSIONS }] });
    expect(s.memory.ciLow).toBe(s.memory.estimate);
    const part = await rpc.client.invoke('keys.folderStats', { profileId: 'local', prefix: b64('user:'), samples: 100 });
    expect(part).toMatchObject({ sampled: 100, count: USERS });
    expect(part.memory.ciLow).toBeLessThanOrEqual(part.memory.estimate);
    expect(part.memory.ciHigh).toBeGreaterThanOrEqual(part.memory.estimate);
    expect(part.memory.estimate).toBeGreaterThan(0);
  });

  it('past a tiny budget the names go, the counts stay, and folders and globs fall back to SCAN MATCH', async () => {
    const events = await build(tiny);
    expect(events.at(-1)).toMatchObject({ kind: 'done', state: { names: 'over-budget', complete: true, scanned: TOTAL } });
    const root = await tree(tiny);
    expect(root.nodes.find((n) => n.ref.b64 === b64('user:'))?.count).toBe(USERS);
    expect(root.nodes.find((n) => n.ref.b64 === b64('plain'))?.kind).toBe('key');
    const a = await tree(tiny, 'a:');
    expect(a.nodes.map((n) => n.ref.b64)).toEqual([b64('a::'), b64('a:')]);
    const got: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await tiny.client.invoke('keys.list', { profileId: 'local', match: b64('user:1*'), limit: 100, ...(cursor ? { cursor } : {}) });
      expect(page.source).toBe('scan');
      got.push(...page.keys.map((k) => k.key.b64));
      cursor = page.cursor;
    } while (cursor !== null);
    expect(new Set(got).size).toBe([...Array(USERS).keys()].filter((i) => String(i).startsWith('1')).length);
  });

  it("past the folders' half of the budget new folders are not listed, and the counts of those listed stay exact", async () => {
    const capped = keysRpc([{ id: 'local', source: 'config', spec: specFor(redis()) }], { budgetBytes: 1200, role: 'ops' });
    try {
      const events = await build(capped);
      expect(events.at(-1)).toMatchObject({ kind: 'done', state: { foldersCapped: true, complete: true, scanned: TOTAL } });
      const root = await tree(capped);
      const folders = root.nodes.filter((n) => n.kind === 'folder');
      expect(folders.length).toBeGreaterThan(0);
      const want = new Map([
        [b64('user:'), USERS],
        [b64('session:'), SESSIONS],
        [b64('ttl:'), 20],
        [b64('bin:'), 2],
        [b64('a:'), 2],
        [b64(':'), 1],
      ]);
      for (const f of folders) if (want.has(f.ref.b64)) expect(f.count).toBe(want.get(f.ref.b64));
      expect(root.nodes.reduce((a, n) => a + n.count, 0)).toBeLessThanOrEqual(TOTAL);
    } finally {
      await capped.close();
    }
  });

  it('keeps indexes within one budget for all: the least recently used idle one goes', async () => {
    // Each index holds its first 8 MiB chunk of names: room for two of them, not three.
    const lru = keysRpc([{ id: 'local', source: 'config', spec: specFor(redis()) }], { budgetBytes: 20 << 20, idleMs: 0, role: 'ops' });
    try {
      const state = async (separator: string) => (await lru.client.invoke('keys.tree', { profileId: 'local', separator, prefix: '' })).state.status;
      for (const sep of [':', '/']) await build(lru, sep);
      expect(await state(':')).toBe('ready'); // used: '/' is now the oldest
      await build(lru, '-');
      expect(await state('/')).toBe('none');
      for (const sep of [':', '-']) expect(await state(sep)).toBe('ready');
      expect(lru.indexes.held()).toBeLessThanOrEqual(20 << 20);
    } finally {
      await lru.close();
    }
  });

  it("cancel leaves what was scanned, 'cancelled' and incomplete", async () => {
    const slow = keysRpc([{ id: 'local', source: 'config', spec: specFor(redis()) }], { tuning: { count: 10, pauseMs: 20 } });
    try {
      const { jobId } = await slow.client.invoke('keys.index.start', { profileId: 'local' });
      const ended = followIndex(slow.client, jobId);
      // Cancelled once some keys are in (not after a fixed wait: under load the scan may not have begun).
      expect(await eventually(async () => (await slow.client.invoke('keys.tree', { profileId: 'local', prefix: '' })).state.scanned > 0, 20_000)).toBe(true);
      expect(await slow.client.invoke('keys.index.cancel', { jobId })).toEqual({ cancelled: true });
      const { events } = await ended;
      expect(events.at(-1)).toMatchObject({ kind: 'cancelled', state: { status: 'cancelled', complete: false } });
      const t = await slow.client.invoke('keys.tree', { profileId: 'local', prefix: '' });
      expect(t.state).toMatchObject({ status: 'cancelled', complete: false });
      expect(t.state.scanned).toBeGreaterThan(0);
      expect(t.state.scanned).toBeLessThan(TOTAL);
    } finally {
      await slow.close();
    }
  });
});
