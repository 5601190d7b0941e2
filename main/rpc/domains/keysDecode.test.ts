import { encode } from '@msgpack/msgpack';
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import type { Redis } from 'ioredis';
import { serialize } from 'php-serialize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../../app/rpcClient';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { keysDecodeRpc } from './keysDecodeRpcTestKit';

const redis = useRedis();
let rpc: ReturnType<typeof keysDecodeRpc>;
let admin: Redis;
let analyst: RpcClient;
const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const fixture = (name: string): Buffer => readFileSync(new URL(`../../core/keys/decode/fixtures/${name}`, import.meta.url));
const doc = { user: 'ada', ids: [1, 2, 3] };

beforeAll(async () => {
  admin = await adminClient(redis());
  rpc = keysDecodeRpc([{ id: 'local', source: 'config', spec: specFor(redis()) }]);
  analyst = rpc.as('analyst');
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

const decode = (key: string | Buffer, more: Record<string, unknown> = {}) => analyst.invoke('keys.decode', { profileId: 'local', key: b64(key), ...more });

describe('keys.decode against a real server, as an analyst', () => {
  it.each([
    ['json', Buffer.from(JSON.stringify(doc))],
    ['msgpack', Buffer.from(encode(doc))],
    ['php', Buffer.from(serialize(doc))],
  ] as const)('%s, stored gzipped, comes back decompressed and decoded', async (format, bytes) => {
    const key = Buffer.from(`v:${format}:\xff`, 'latin1');
    const packed = zlib.gzipSync(bytes);
    await admin.set(key, packed);
    const r = await decode(key);
    expect(r).toEqual({
      compression: 'gzip',
      format,
      valueBytes: packed.length,
      inputBytes: packed.length,
      decodedBytes: bytes.length,
      text: '{\n  "user": "ada",\n  "ids": [\n    1,\n    2,\n    3\n  ]\n}',
      truncated: false,
      error: null,
    });
  });

  it('pickle (parsed, never run), zstd, and a format asked for by name', async () => {
    await admin.set('v:pickle', fixture('exploit.pickle'));
    expect(await decode('v:pickle')).toMatchObject({ format: 'pickle', text: expect.stringContaining('posix.system') as unknown, error: null });
    await admin.set('v:zst', fixture('value.json.zst'));
    expect(await decode('v:zst')).toMatchObject({ compression: 'zstd', format: 'json', decodedBytes: 2515, error: null });
    expect(await decode('v:zst', { as: 'text', compression: 'none' })).toMatchObject({ compression: null, format: 'text', error: null });
    expect(await decode('v:zst', { as: 'php' })).toMatchObject({
      compression: 'zstd',
      format: 'php',
      text: '',
      error: expect.stringMatching(/^php: /) as unknown,
    });
  });

  it('in the DB asked for', async () => {
    await admin.select(4);
    await admin.set('in:db4', '[4]');
    await admin.select(0);
    expect(await decode('in:db4', { db: 4 })).toMatchObject({ format: 'json', text: '[\n  4\n]' });
    await expect(decode('in:db4')).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'key' });
  });

  it('a 20 MB value: only its first 16 MB are read, by GETRANGE, never GET', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024, 0x61);
    await admin.set('v:big', big);
    await admin.config('RESETSTAT');
    const r = await decode('v:big');
    expect(r).toMatchObject({ format: 'text', valueBytes: big.length, inputBytes: 16 * 1024 * 1024, truncated: true, error: null });
    expect(r.text).toHaveLength(2 * 1024 * 1024);
    expect(await decode('v:big', { as: 'json' })).toMatchObject({
      error: 'Decoding json needs the whole value, which is 20 MB; decoding reads at most the first 16 MB',
    });
    const stats = await admin.info('commandstats');
    expect(stats).toMatch(/cmdstat_getrange:calls=32,/);
    expect(stats).not.toMatch(/cmdstat_get:/);
  });

  it('refuses a key that is not a string, a missing key and an unknown profile, naming the field', async () => {
    await admin.hset('v:hash', 'f', 'v');
    await expect(decode('v:hash')).rejects.toMatchObject({ code: 'VALIDATION', field: 'key', message: expect.stringContaining('holds a hash') as unknown });
    await expect(decode('v:none')).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'key' });
    await expect(analyst.invoke('keys.decode', { profileId: 'ghost', key: b64('k') })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'profileId' });
    await expect(decode('k', { as: 'yaml' })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
