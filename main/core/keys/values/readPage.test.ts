import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadPage, ReadResult } from '../../../../app/schemas/keys';
import { ReadPage as ReadPageSchema } from '../../../../app/schemas/keys';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { ELEMENT_MAX_BYTES } from '../keyRef';
import { readPage } from './readPage';
import { clientOf, type ValueClient } from './valueClient';

const redis = useRedis();
let admin: Redis;
let client: ValueClient;

/** Key names no text layer may bend: a lone 0xff byte, CR LF, a right-to-left override. */
const HOSTILE = [Buffer.from([0x6b, 0xff, 0x00]), Buffer.from('k\r\nline'), Buffer.from('k\u202Eevil', 'utf8')];
const page = (p: Record<string, unknown>): ReadPage => ReadPageSchema.parse(p);
const bytesOf = (v: { b64: string }): Buffer => Buffer.from(v.b64, 'base64');
const hex = (b: Buffer) => b.toString('hex');

beforeAll(async () => {
  admin = await adminClient(redis());
  client = clientOf(admin);
});
afterAll(closeAdmins);

async function read<T extends ReadResult['type']>(key: Buffer, p: Record<string, unknown>): Promise<Extract<ReadResult, { type: T }>> {
  return (await readPage(client, key, page(p))) as Extract<ReadResult, { type: T }>;
}

describe('string pages', () => {
  it('GETRANGE windows of a binary value, under binary names, add up to the exact bytes', async () => {
    const value = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
    for (const key of HOSTILE) {
      await admin.set(key, value);
      const parts: Buffer[] = [];
      for (let offset = 0; offset < value.length; offset += 30_000) {
        const r = await read<'string'>(key, { type: 'string', offset, length: 30_000 });
        expect(r.total).toBe(value.length);
        expect(r.offset).toBe(offset);
        parts.push(bytesOf(r.data));
      }
      expect(hex(Buffer.concat(parts))).toBe(hex(value));
    }
  });

  it('the first view is 256 KB; a window past the end is empty', async () => {
    const key = Buffer.from('big:string');
    await admin.set(key, Buffer.alloc(600_000, 0x61));
    const first = await read<'string'>(key, { type: 'string' });
    expect(first.data.bytes).toBe(256 * 1024);
    expect(first.total).toBe(600_000);
    const past = await read<'string'>(key, { type: 'string', offset: 700_000 });
    expect(past.data.bytes).toBe(0);
  });
});

describe('hash and set pages', () => {
  it('HSCAN from cursor 0 until 0 covers every field once (binary fields and values), total is HLEN', async () => {
    const key = HOSTILE[0] as Buffer;
    await admin.del(key);
    const want = new Map<string, string>();
    const p = admin.pipeline();
    for (let i = 0; i < 1_500; i++) {
      const f = Buffer.concat([Buffer.from([0xff, i % 256]), Buffer.from(String(i))]);
      const v = Buffer.from([i % 256, 0x0d, 0x0a]);
      want.set(hex(f), hex(v));
      p.hset(key, f, v);
    }
    await p.exec();
    const seen = new Map<string, string>();
    let cursor = '0';
    do {
      const r = await read<'hash'>(key, { type: 'hash', cursor, count: 300 });
      expect(r.total).toBe(1_500);
      // HSCAN may return a field twice only across a rehash; none happens on an idle server.
      for (const e of r.entries) seen.set(hex(bytesOf(e.field)), hex(bytesOf(e.value)));
      cursor = r.cursor;
    } while (cursor !== '0');
    expect(seen).toEqual(want);
  });

  it('HSCAN MATCH takes a binary pattern', async () => {
    const key = Buffer.from('h:match');
    await admin.hset(key, Buffer.from([0xfe, 0x41]), 'a', Buffer.from([0xfe, 0x42]), 'b', 'other', 'c');
    const r = await read<'hash'>(key, { type: 'hash', match: Buffer.from([0xfe, 0x2a]).toString('base64') });
    expect(r.entries.map((e) => hex(bytesOf(e.field))).sort()).toEqual(['fe41', 'fe42']);
  });

  it('SSCAN until 0 covers every member once; total is SCARD', async () => {
    const key = HOSTILE[2] as Buffer;
    const members = Array.from({ length: 2_000 }, (_, i) => Buffer.from(`m\u202E${i}\xff`, 'latin1'));
    await admin.del(key);
    await admin.sadd(key, ...members);
    const seen = new Set<string>();
    let cursor = '0';
    do {
      const r = await read<'set'>(key, { type: 'set', cursor, count: 500 });
      expect(r.total).toBe(2_000);
      for (const m of r.members) seen.add(hex(bytesOf(m)));
      cursor = r.cursor;
    } while (cursor !== '0');
    expect(seen).toEqual(new Set(members.map(hex)));
  });

  it('an element over ELEMENT_MAX_BYTES is cut and says so, with its full length', async () => {
    const key = Buffer.from('h:long');
    await admin.hset(key, 'f', Buffer.alloc(ELEMENT_MAX_BYTES + 10, 0x62));
    const r = await read<'hash'>(key, { type: 'hash' });
    expect(r.entries[0]?.value).toMatchObject({ bytes: ELEMENT_MAX_BYTES + 10, truncated: true });
    expect(bytesOf(r.entries[0]?.value ?? { b64: '' }).length).toBe(ELEMENT_MAX_BYTES);
  });
});

describe('list pages', () => {
  const key = HOSTILE[1] as Buffer;
  const items = Array.from({ length: 450 }, (_, i) => Buffer.from([i % 256, 0xff, 0x0a]));
  beforeAll(async () => {
    await admin.del(key);
    await admin.rpush(key, ...items);
  });

  it('from the head: pages of real indexes that cover every item once', async () => {
    const got: Array<{ index: number; hex: string }> = [];
    for (let start = 0; start < 450; start += 200) {
      const r = await read<'list'>(key, { type: 'list', start, count: 200 });
      expect(r.total).toBe(450);
      got.push(...r.items.map((i) => ({ index: i.index, hex: hex(bytesOf(i.value)) })));
    }
    expect(got).toEqual(items.map((b, index) => ({ index, hex: hex(b) })));
  });

  it('from the end: negative windows reported with real indexes, the last page clamped at the head', async () => {
    const last = await read<'list'>(key, { type: 'list', fromEnd: true, count: 100 });
    expect(last.items.map((i) => i.index)).toEqual(Array.from({ length: 100 }, (_, i) => 350 + i));
    expect(hex(bytesOf(last.items[99]?.value ?? { b64: '' }))).toBe(hex(items[449] as Buffer));
    const head = await read<'list'>(key, { type: 'list', fromEnd: true, start: 400, count: 100 });
    expect(head.items.map((i) => i.index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(hex(bytesOf(head.items[0]?.value ?? { b64: '' }))).toBe(hex(items[0] as Buffer));
  });
});

describe('zset pages', () => {
  const key = Buffer.from('z:\xff', 'latin1');
  beforeAll(async () => {
    const args: Array<string | Buffer | number> = [];
    for (let i = 0; i < 300; i++) args.push(i, Buffer.from([0xff, i % 256, Math.floor(i / 256)]));
    await admin.zadd(key, ...args);
  });

  it('by rank, both directions, with scores and ranks', async () => {
    const asc = await read<'zset'>(key, { type: 'zset', start: 10, count: 5 });
    expect(asc.total).toBe(300);
    expect(asc.members.map((m) => [m.rank, m.score])).toEqual([10, 11, 12, 13, 14].map((i) => [i, String(i)]));
    expect(hex(bytesOf(asc.members[0]?.member ?? { b64: '' }))).toBe(hex(Buffer.from([0xff, 10, 0])));
    const desc = await read<'zset'>(key, { type: 'zset', rev: true, count: 3 });
    expect(desc.members.map((m) => [m.rank, m.score])).toEqual([
      [0, '299'],
      [1, '298'],
      [2, '297'],
    ]);
  });

  it('by score with LIMIT offsets, both directions, exclusive bounds', async () => {
    const asc = await read<'zset'>(key, { type: 'zset', by: 'score', min: '(100', max: '200', start: 5, count: 3 });
    expect(asc.members.map((m) => [m.rank, m.score])).toEqual([
      [null, '106'],
      [null, '107'],
      [null, '108'],
    ]);
    const desc = await read<'zset'>(key, { type: 'zset', by: 'score', min: '100', max: '200', rev: true, count: 2 });
    expect(desc.members.map((m) => m.score)).toEqual(['200', '199']);
  });

  it('a bad score names page.min', async () => {
    await expect(readPage(client, key, page({ type: 'zset', by: 'score', min: 'abc' }))).rejects.toMatchObject({ code: 'VALIDATION', field: 'page.min' });
  });
});

describe('stream pages', () => {
  const key = Buffer.from('s:\r\n');
  const ids: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 250; i++) ids.push(String(await admin.xadd(key, '*', Buffer.from([0xff, i % 256]), Buffer.from(`v${i}\n`))));
  });

  it('XRANGE pages by COUNT cover every entry once; XREVRANGE reads from the end', async () => {
    const seen: string[] = [];
    let start = '-';
    for (;;) {
      const r = await read<'stream'>(key, { type: 'stream', start, count: 100 });
      expect(r.total).toBe(250);
      seen.push(...r.entries.map((e) => e.id));
      if (r.entries.length < 100) break;
      start = `(${r.entries.at(-1)?.id ?? ''}`;
    }
    expect(seen).toEqual(ids);
    const rev = await read<'stream'>(key, { type: 'stream', rev: true, count: 2 });
    expect(rev.entries.map((e) => e.id)).toEqual([ids[249], ids[248]]);
    expect(hex(bytesOf(rev.entries[0]?.fields[0]?.field ?? { b64: '' }))).toBe(hex(Buffer.from([0xff, 249])));
    expect(bytesOf(rev.entries[0]?.fields[0]?.value ?? { b64: '' }).toString()).toBe('v249\n');
  });

  it('a bad ID names page.start', async () => {
    await expect(readPage(client, key, page({ type: 'stream', start: 'nope' }))).rejects.toMatchObject({ code: 'VALIDATION', field: 'page.start' });
  });
});

describe('refusals', () => {
  it("a page of the wrong type names page.type and the key's real type", async () => {
    await admin.set('plain', 'x');
    const err = await readPage(client, Buffer.from('plain'), page({ type: 'hash' })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'VALIDATION', field: 'page.type' });
    expect(String((err as Error).message)).toMatch(/is a string/);
  });

  it('a missing key is NOT_FOUND on key', async () => {
    await expect(readPage(client, Buffer.from('no such key'), page({ type: 'string' }))).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'key' });
  });
});
