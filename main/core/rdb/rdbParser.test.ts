import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAdmins, stopAllRedis } from '../../../testing/redis';
import { fillEveryEncoding, startRdbServer, type ExpiredKey, type RdbServer } from '../../../testing/rdbFiles';
import { parseRdb, parseRdbFile, RdbError, type RdbKeyRecord, type RdbSummary } from './index';

/** What a record says, copied out of the parser's reused record. */
interface Seen {
  db: number;
  key: string;
  type: string;
  encoding: string;
  length: number;
  expiresAt: number | null;
  serializedBytes: number;
  compressed: boolean;
  largestElement: number;
  valueBytes: number;
  nodes: number;
  groups: number;
  pending: number;
}

async function collect(input: Parameters<typeof parseRdb>[0] | string): Promise<{ keys: Seen[]; aux: Map<string, string>; summary: RdbSummary }> {
  const keys: Seen[] = [];
  const aux = new Map<string, string>();
  const visitor = {
    key: (r: RdbKeyRecord) =>
      keys.push({
        db: r.db,
        key: r.key.toString('latin1'),
        type: r.type,
        encoding: r.encoding,
        length: r.length,
        expiresAt: r.expiresAt,
        serializedBytes: r.serializedBytes,
        compressed: r.compressed,
        largestElement: r.largestElement,
        valueBytes: r.valueBytes,
        nodes: r.nodes,
        groups: r.groups,
        pending: r.pending,
      }),
    aux: (name: string, value: Buffer) => aux.set(name, value.toString('latin1')),
  };
  const summary = typeof input === 'string' ? await parseRdbFile(input, visitor) : await parseRdb(input, visitor);
  return { keys, aux, summary };
}

async function* inChunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function failure(input: Parameters<typeof parseRdb>[0], seen: Seen[] = []): Promise<RdbError> {
  try {
    await parseRdb(input, { key: (r) => seen.push({ key: r.key.toString('latin1'), serializedBytes: r.serializedBytes } as Seen) });
  } catch (err) {
    if (err instanceof RdbError) return err;
    throw err;
  }
  throw new Error('the parse did not fail');
}

/** OBJECT ENCODING on Redis 7.0 after a load: the RDB's list and stream layouts have one in-memory name. */
function liveEncoding(rec: Seen): string {
  if (rec.type === 'list') return 'quicklist';
  if (rec.type === 'stream') return 'stream';
  return rec.encoding;
}

const LENGTH: Record<string, string> = { string: 'STRLEN', list: 'LLEN', set: 'SCARD', zset: 'ZCARD', hash: 'HLEN', stream: 'XLEN' };

describe('RDB files written by redis-server', () => {
  let server: RdbServer;
  let file: string;
  let bytes: Buffer;
  let expired: ExpiredKey[];
  let parsed: Awaited<ReturnType<typeof collect>>;
  /** INFO keyspace at SAVE time: later lookups delete the expired keys the file still has. */
  let keyspace: string;

  beforeAll(async () => {
    server = await startRdbServer();
    expired = await fillEveryEncoding(server);
    file = await server.save();
    keyspace = String(await server.admin.info('keyspace'));
    bytes = readFileSync(file);
    parsed = await collect(file);
  }, 60_000);

  afterAll(async () => {
    await closeAdmins();
    await stopAllRedis();
  });

  it('reports every key with the type, encoding, length and TTL the live server has', async () => {
    const byName = new Map(parsed.keys.map((k) => [`${k.db}/${k.key}`, k]));
    const expiredNames = new Set(expired.map((e) => `${e.db}/${e.key}`));
    let compared = 0;
    for (const db of [0, 1, 5]) {
      const admin: Redis = server.admin.duplicate({ db });
      try {
        let cursor = '0';
        do {
          const [next, names] = await admin.scanBuffer(cursor, 'COUNT', 500);
          cursor = String(next);
          for (const name of names) {
            const id = `${db}/${name.toString('latin1')}`;
            if (expiredNames.has(id)) continue;
            const rec = byName.get(id);
            expect(rec, id).toBeDefined();
            if (rec === undefined) continue;
            const type = await admin.type(name);
            const encoding = await admin.call('OBJECT', 'ENCODING', name);
            const length = Number(await admin.call(LENGTH[type]!, name));
            const pexpiretime = Number(await admin.call('PEXPIRETIME', name));
            expect({ id, type: rec.type, encoding: liveEncoding(rec), length: rec.length, expiresAt: rec.expiresAt }).toEqual({
              id,
              type,
              encoding,
              length,
              expiresAt: pexpiretime < 0 ? null : pexpiretime,
            });
            compared++;
          }
        } while (cursor !== '0');
      } finally {
        admin.disconnect();
      }
    }
    expect(compared).toBe(parsed.keys.length - expired.length);
  });

  it('covers every encoding Redis 7.0 writes', () => {
    const encodings = new Set(parsed.keys.map((k) => `${k.type}:${k.encoding}`));
    for (const e of [
      'string:int',
      'string:embstr',
      'string:raw',
      'list:quicklist2',
      'set:intset',
      'set:hashtable',
      'zset:listpack',
      'zset:skiplist',
      'hash:listpack',
      'hash:hashtable',
    ]) {
      expect(encodings, e).toContain(e);
    }
    expect([...encodings].some((e) => e.startsWith('stream:listpacks'))).toBe(true);
    expect(parsed.keys.filter((k) => k.compressed).map((k) => k.key)).toEqual(expect.arrayContaining(['str:raw-compressible', 'str:big', 'hash:compressible']));
    // The long key name is LZF-compressed in the file, and read back whole.
    expect(bytes.indexOf('k'.repeat(80))).toBe(-1);
    expect(parsed.keys.map((k) => k.key)).toContain(`key-${'k'.repeat(80)}`);
    expect(parsed.keys.find((k) => k.key === 'str:raw-noise')?.compressed).toBe(false);
    const stream = parsed.keys.find((k) => k.key === 'stream:groups');
    expect(stream).toMatchObject({ groups: 2, pending: 8 });
    // PLAIN nodes hold one element each, counted once (500 + 400); the short ones sit in listpack
    // nodes, counted as the listpack's bytes: 6 header + (1 encoding + data + 1 backlen) + 1 end.
    expect(parsed.keys.find((k) => k.key === 'list:plain')).toMatchObject({ largestElement: 500, valueBytes: 500 + 400 + (6 + 7 + 1) + (6 + 13 + 1) });
    expect(parsed.keys.find((k) => k.key === 'set:hashtable')).toMatchObject({ valueBytes: 3 + 60, largestElement: 60, nodes: 0 });
  });

  it('reports keys already expired but still in the file, with their past TTL', () => {
    for (const e of expired) {
      const rec = parsed.keys.find((k) => k.db === e.db && k.key === e.key);
      expect(rec, e.key).toMatchObject({ type: e.type, length: e.length });
      expect(rec?.expiresAt).toBeLessThan(Date.now());
    }
  });

  it('counts keys and expires per DB as INFO keyspace does, and checks the CRC', async () => {
    const info = keyspace;
    const live: Record<string, { keys: number; expires: number }> = {};
    for (const m of info.matchAll(/^db(\d+):keys=(\d+),expires=(\d+)/gm)) live[m[1]!] = { keys: Number(m[2]), expires: Number(m[3]) };
    const counted: Record<string, { keys: number; expires: number }> = {};
    for (const k of parsed.keys) {
      const c = (counted[String(k.db)] ??= { keys: 0, expires: 0 });
      c.keys++;
      if (k.expiresAt !== null) c.expires++;
    }
    expect(counted).toEqual(live);
    expect(parsed.summary).toMatchObject({ rdbVersion: 10, bytes: bytes.length, keys: parsed.keys.length, checksum: 'ok' });
    expect(parsed.aux.get('redis-ver')).toMatch(/^7\./);
    expect(Number(parsed.aux.get('ctime'))).toBeGreaterThan(0);
  });

  it('gives the same records however the bytes are chunked, and from a gzip copy', async () => {
    for (const size of [1, 7, 4096]) {
      const again = await collect(inChunks(bytes, size));
      expect(again.keys, `chunks of ${size}`).toEqual(parsed.keys);
      expect(again.summary).toEqual(parsed.summary);
    }
    const gz = join(server.proc.dir, 'dump.rdb.gz');
    writeFileSync(gz, gzipSync(bytes));
    const unzipped = await collect(gz);
    expect(unzipped.keys).toEqual(parsed.keys);
    expect(unzipped.summary).toEqual(parsed.summary);

    // A .gz cut short is a truncated RDB, not a zlib error.
    const zipped = gzipSync(bytes);
    const cut = await failure(inChunks(zipped.subarray(0, Math.floor(zipped.length / 2)), 4096));
    expect(cut.kind).toBe('truncated');
    expect(cut.message).toMatch(/cut short at byte \d+ \(RDB version 10\)/);
  });

  it('stops a truncated file with the offset where it ends, and reports only whole keys before it', async () => {
    for (const cut of [bytes.length - 1, Math.floor(bytes.length / 2), 200, 9, 3]) {
      const seen: Seen[] = [];
      const err = await failure(inChunks(bytes.subarray(0, cut), 4096), seen);
      if (cut < 9) {
        expect(err.kind).toBe('not-rdb');
        continue;
      }
      expect(err.kind, `cut at ${cut}`).toBe('truncated');
      expect(err.offset).toBe(cut);
      expect(err.message).toContain(`byte ${cut}`);
      expect(err.message).toContain('RDB version 10');
      // Cut in the checksum, every key is whole; anywhere before, some are missing.
      expect(seen.length).toBeLessThanOrEqual(parsed.keys.length);
      if (cut < bytes.length - 9) expect(seen.length).toBeLessThan(parsed.keys.length);
      expect(seen).toEqual(parsed.keys.slice(0, seen.length).map((k) => ({ key: k.key, serializedBytes: k.serializedBytes })));
    }
  });

  it('refuses a file whose checksum does not match, whether the checksum or a value byte changed', async () => {
    const badSum = Buffer.from(bytes);
    badSum[badSum.length - 1]! ^= 0x01;
    const err = await failure(inChunks(badSum, 65536));
    expect(err.kind).toBe('checksum');
    expect(err.offset).toBe(bytes.length - 8);

    const badValue = Buffer.from(bytes);
    const at = badValue.indexOf(Buffer.from('a key name long enough'));
    expect(at).toBeGreaterThan(0);
    badValue[at]! ^= 0x20;
    expect((await failure(inChunks(badValue, 65536))).kind).toBe('checksum');
  });

  it('refuses what is not an RDB file at byte 0', async () => {
    for (const junk of [Buffer.from('hello, world: not a dump'), Buffer.alloc(0), Buffer.from('REDIS')]) {
      const err = await failure(inChunks(junk, 16));
      expect(err.kind).toBe('not-rdb');
      expect(err.message).toMatch(/not an RDB file/);
    }
  });
});
