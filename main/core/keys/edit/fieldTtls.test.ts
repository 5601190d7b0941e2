import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { hasFieldTtls } from '../../pool/commandSupport';
import { readPage } from '../values/readPage';
import { clientOf } from '../values/valueClient';
import { b64, editOn, openKey, refusal } from './editTestKit';
import { fullMetaReader } from './freshMeta';

/*
 * Issue 29 item 4: hash-field expiration (HEXPIRE and friends: Redis 7.4+, Valkey 9), found by
 * COMMAND INFO. The server these tests start may lack it (Redis 7.0 does): then the paths
 * without it run and the paths with it skip themselves; on a server with it, the reverse.
 */

const redis = useRedis();
let admin: Redis;
let edit: ReturnType<typeof editOn>;
let has = false;

beforeAll(async () => {
  admin = await adminClient(redis());
  edit = editOn(admin);
  has = await hasFieldTtls(admin);
});
afterAll(closeAdmins);
beforeEach(async () => {
  await admin.flushdb();
});

const hashPage = async () => {
  const r = await readPage(clientOf(admin), Buffer.from('hash:ttl'), { type: 'hash', cursor: '0', count: 100 });
  if (r.type !== 'hash') throw new Error('not a hash page');
  return r;
};

describe('a server without hash-field expiration', () => {
  it('shows no field TTLs, says so in the metadata, and sets fields as before', async (ctx) => {
    if (has) ctx.skip();
    await admin.hset('hash:ttl', 'f1', 'v1', 'f2', 'v2');
    expect((await fullMetaReader(admin)(Buffer.from('hash:ttl'))).fieldTtls).toBe(false);
    expect((await hashPage()).entries.map((e) => e.ttlMs)).toEqual([null, null]);
    await edit('hash:ttl', { op: 'hash.set', field: b64('f1'), value: b64('V1'), expectValue: b64('v1') });
    expect(await admin.hgetall('hash:ttl')).toEqual({ f1: 'V1', f2: 'v2' });
  });

  it('refuses a field TTL naming edit.ttlSeconds, before anything runs', async (ctx) => {
    if (has) ctx.skip();
    await admin.hset('hash:ttl', 'f1', 'v1');
    const seen = await openKey(admin, 'hash:ttl');
    const calls = async () => Number(/cmdstat_eval(?:sha)?:calls=(\d+)/.exec(await admin.info('commandstats'))?.[1] ?? 0);
    const before = await calls();
    const e = await refusal(edit('hash:ttl', { op: 'hash.ttl', field: b64('f1'), expectValue: b64('v1'), ttlSeconds: 60, seen }));
    expect(e).toMatchObject({ code: 'VALIDATION', field: 'edit.ttlSeconds' });
    expect(e.message).toMatch(/no hash-field expiration/);
    expect(await calls()).toBe(before);
  });
});

describe('a server with hash-field expiration', () => {
  it("shows each field's TTL, and an edit of f1's value keeps f1's TTL", async (ctx) => {
    if (!has) ctx.skip();
    await admin.hset('hash:ttl', 'f1', 'v1', 'f2', 'v2');
    await admin.call('HEXPIRE', 'hash:ttl', 3600, 'FIELDS', 2, 'f1', 'f2');
    expect((await fullMetaReader(admin)(Buffer.from('hash:ttl'))).fieldTtls).toBe(true);
    for (const e of (await hashPage()).entries) expect(e.ttlMs).toBeGreaterThan(3_500_000);
    const at = (await admin.call('HPEXPIRETIME', 'hash:ttl', 'FIELDS', 1, 'f1')) as number[];
    await edit('hash:ttl', { op: 'hash.set', field: b64('f1'), value: b64('V1'), expectValue: b64('v1') });
    expect(await admin.hget('hash:ttl', 'f1')).toBe('V1');
    expect(await admin.call('HPEXPIRETIME', 'hash:ttl', 'FIELDS', 1, 'f1')).toEqual(at);
  });

  it("sets and removes a field's TTL; a field changed since is a conflict", async (ctx) => {
    if (!has) ctx.skip();
    await admin.hset('hash:ttl', 'f1', 'v1', 'f2', 'v2');
    await edit('hash:ttl', { op: 'hash.ttl', field: b64('f1'), expectValue: b64('v1'), ttlSeconds: 600 });
    expect(((await admin.call('HTTL', 'hash:ttl', 'FIELDS', 1, 'f1')) as number[])[0]).toBeGreaterThan(500);
    await edit('hash:ttl', { op: 'hash.ttl', field: b64('f1'), expectValue: b64('v1'), ttlSeconds: null });
    expect(await admin.call('HTTL', 'hash:ttl', 'FIELDS', 1, 'f1')).toEqual([-1]);
    await admin.hset('hash:ttl', 'f1', 'theirs');
    expect((await refusal(edit('hash:ttl', { op: 'hash.ttl', field: b64('f1'), expectValue: b64('v1'), ttlSeconds: 5 }))).code).toBe('CONFLICT');
    expect(await admin.call('HTTL', 'hash:ttl', 'FIELDS', 1, 'f1')).toEqual([-1]);
  });
});
