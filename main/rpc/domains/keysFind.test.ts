import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../../app/errors';
import type { FindEvent, FoundElement } from '../../../app/schemas/keys';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { keysValuesRpc, type KeysValuesRpc } from './keysValuesRpcTestKit';

const redis = useRedis();
let admin: Redis;
let rpc: KeysValuesRpc;
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const text = (v: { b64: string }) => Buffer.from(v.b64, 'base64').toString();

/** 200,000 elements: every 50th is `vip:<i>`, the rest `f:<i>`. */
const N = 200_000;
const nameOf = (i: number) => (i % 50 === 0 ? `vip:${i}` : `f:${i}`);
const names = Array.from({ length: N }, (_, i) => nameOf(i));
/** What `vip:*3*0` matches among what the test wrote, counted here without any glob (every vip number ends in 0). */
const vipWith3 = names.filter((n) => n.startsWith('vip:') && n.slice(4).includes('3'));

interface Found {
  events: FindEvent[];
  error: AppError | undefined;
  found: FoundElement[];
}

function find(input: { key: string; type: 'hash' | 'set' | 'zset'; match: string; limit?: number }): Promise<Found> {
  return new Promise((resolve) => {
    const events: FindEvent[] = [];
    rpc.as('analyst').subscribe(
      'keys.findElements',
      { profileId: 'local', ...input, key: b64(input.key), match: b64(input.match) },
      {
        onEvents: (batch) => events.push(...batch),
        onEnd: (error) => resolve({ events, error, found: events.flatMap((e) => e.found) }),
      },
    );
  });
}

/** Calls per command since the last RESETSTAT. */
async function calls(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const m of (await admin.info('commandstats')).matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)) out[m[1] as string] = Number(m[2]);
  return out;
}

beforeAll(async () => {
  admin = await adminClient(redis());
  // Loaded in pipelined batches of 10,000 elements: a few hundred ms.
  const pipe = admin.pipeline();
  for (let at = 0; at < N; at += 10_000) {
    const batch = names.slice(at, at + 10_000);
    pipe.hset('big:hash', ...batch.flatMap((n) => [n, `value of ${n}`]));
    pipe.sadd('big:set', ...batch);
    pipe.zadd('big:zset', ...batch.flatMap((n, j) => [String(at + j), n]));
  }
  await pipe.exec();
  rpc = keysValuesRpc([{ id: 'local', source: 'config', spec: specFor(redis()) }]);
}, 60_000);
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

describe('keys.findElements', () => {
  it('an exact field of a 200k-field hash: one lookup (HGET), no walk', async () => {
    await admin.config('RESETSTAT');
    const got = await find({ key: 'big:hash', type: 'hash', match: 'vip:1050' });
    expect(got.error).toBeUndefined();
    expect(got.events).toHaveLength(1);
    expect(got.events[0]).toMatchObject({ kind: 'done', exact: true, total: N, matched: 1, notShown: 0 });
    expect(got.found.map((f) => [text(f.element), f.value && text(f.value)])).toEqual([['vip:1050', 'value of vip:1050']]);
    const stats = await calls();
    expect(stats['hget']).toBe(1);
    expect(stats['hscan']).toBeUndefined();
  });

  it('an exact field that is not there: found nothing, at once', async () => {
    const got = await find({ key: 'big:hash', type: 'hash', match: 'vip:1051' });
    expect(got.events).toEqual([expect.objectContaining({ kind: 'done', exact: true, matched: 0, found: [] })]);
  });

  it('the test data has more matches than one find shows', () => {
    expect(vipWith3.length).toBeGreaterThan(100);
  });

  it('a glob walks the hash with progress, counts every match and shows the first `limit`', async () => {
    await admin.config('RESETSTAT');
    const got = await find({ key: 'big:hash', type: 'hash', match: 'vip:*3*0', limit: 50 });
    expect(got.error).toBeUndefined();
    const progress = got.events.filter((e) => e.kind === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    // Progress climbs: elements read against HLEN, matches so far.
    expect(progress.every((e) => e.total === N && e.scanned < N)).toBe(true);
    expect(progress.map((e) => e.scanned)).toEqual([...progress.map((e) => e.scanned)].sort((a, b) => a - b));
    const done = got.events.at(-1);
    expect(done).toMatchObject({ kind: 'done', exact: false, scanned: N, total: N, matched: vipWith3.length, notShown: vipWith3.length - 50 });
    expect(got.found).toHaveLength(50);
    for (const f of got.found) {
      expect(vipWith3).toContain(text(f.element));
      expect(f.value && text(f.value)).toBe(`value of ${text(f.element)}`);
    }
    expect(new Set(got.found.map((f) => f.element.b64)).size).toBe(50);
    expect((await calls())['hscan']).toBeGreaterThan(1);
  });

  it('a set: SISMEMBER for an exact member, a paced SSCAN for a glob', async () => {
    await admin.config('RESETSTAT');
    const exact = await find({ key: 'big:set', type: 'set', match: 'f:199999' });
    expect(exact.events).toEqual([expect.objectContaining({ kind: 'done', exact: true, matched: 1, total: N })]);
    expect(text(exact.found[0]?.element ?? { b64: '' })).toBe('f:199999');
    expect((await calls())['sismember']).toBe(1);
    const glob = await find({ key: 'big:set', type: 'set', match: 'vip:*3*0' });
    expect(glob.events.some((e) => e.kind === 'progress')).toBe(true);
    expect(glob.events.at(-1)).toMatchObject({ kind: 'done', scanned: N, matched: vipWith3.length });
    expect(glob.found).toHaveLength(100);
    expect(glob.found.every((f) => vipWith3.includes(text(f.element)))).toBe(true);
  });

  it('a sorted set: ZSCORE for an exact member, a paced ZSCAN for a glob, each with its score', async () => {
    await admin.config('RESETSTAT');
    const exact = await find({ key: 'big:zset', type: 'zset', match: 'vip:150' });
    expect(exact.found.map((f) => [text(f.element), f.score])).toEqual([['vip:150', '150']]);
    expect((await calls())['zscore']).toBe(1);
    const glob = await find({ key: 'big:zset', type: 'zset', match: 'vip:1?0' });
    const expected = names.filter((n) => /^vip:1.0$/.test(n));
    expect(glob.events.at(-1)).toMatchObject({ kind: 'done', scanned: N, matched: expected.length, notShown: 0 });
    expect(glob.found.map((f) => [text(f.element), f.score]).sort()).toEqual(expected.map((n) => [n, n.slice(4)]).sort());
  });

  it('a glob with an escaped wildcard is an exact name', async () => {
    await admin.hset('odd:hash', 'a*b', 'star', 'axb', 'x');
    const got = await find({ key: 'odd:hash', type: 'hash', match: 'a\\*b' });
    expect(got.events[0]).toMatchObject({ exact: true, matched: 1 });
    expect(got.found.map((f) => text(f.element))).toEqual(['a*b']);
  });

  it('the wrong type is refused naming `type`; a missing key is NOT_FOUND on `key`', async () => {
    const wrong = await find({ key: 'big:set', type: 'hash', match: 'f:*' });
    expect(wrong.error).toMatchObject({ code: 'VALIDATION', field: 'type' });
    const missing = await find({ key: 'no:such', type: 'hash', match: 'f:*' });
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND', field: 'key' });
  });

  it('Stop (unsubscribe) ends the walk: the server stops scanning', async () => {
    await admin.config('RESETSTAT');
    const events: FindEvent[] = [];
    await new Promise<void>((resolve) => {
      const stop = rpc.as('analyst').subscribe(
        'keys.findElements',
        { profileId: 'local', key: b64('big:hash'), type: 'hash', match: b64('*zzz*') },
        {
          onEvents: (batch) => {
            events.push(...batch);
            stop();
            resolve();
          },
        },
      );
    });
    const after = (await calls())['hscan'] ?? 0;
    await new Promise((r) => setTimeout(r, 300));
    expect((await calls())['hscan'] ?? 0).toBeLessThanOrEqual(after + 1);
    expect(events.every((e) => e.kind === 'progress')).toBe(true);
  });
});
