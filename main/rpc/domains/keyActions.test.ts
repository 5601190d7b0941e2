import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../../app/errors';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { b64 } from '../../core/keys/edit/editTestKit';
import { keyActionsRpc, type KeyActionsRpc } from './keyActionsTestKit';

const redis = useRedis();
let rpc: KeyActionsRpc;
let dbs: Redis[] = [];

beforeAll(async () => {
  rpc = keyActionsRpc([
    { id: 'main', source: 'config', spec: specFor(redis()) },
    { id: 'embedded', source: 'embedded', spec: specFor(redis()) },
  ]);
  dbs = await Promise.all(Array.from({ length: 16 }, (_, db) => adminClient(redis(), { db })));
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

const on = (db: number): Redis => dbs[db] as Redis;

/** n keys `prefix:i` written by a pipeline: strings unless `hash`, with `ttl` seconds when given. */
async function fill(db: number, prefix: string, n: number, o: { hash?: boolean; ttl?: number; value?: (i: number) => string } = {}): Promise<void> {
  const p = on(db).pipeline();
  for (let i = 0; i < n; i++) {
    const v = o.value?.(i) ?? 'v';
    if (o.hash) p.hset(`${prefix}:${i}`, 'f', v);
    else p.set(`${prefix}:${i}`, v);
    if (o.ttl !== undefined) p.expire(`${prefix}:${i}`, o.ttl);
  }
  await p.exec();
}

/** Keys matching `glob`, counted by a SCAN from the side. */
async function count(db: number, glob: string): Promise<number> {
  let n = 0;
  let cursor = '0';
  do {
    const [next, keys] = await on(db).scan(cursor, 'MATCH', glob, 'COUNT', 1000);
    n += keys.length;
    cursor = next;
  } while (cursor !== '0');
  return n;
}

const start = (db: number, match: string, action: Record<string, unknown>, over: { dryRun?: boolean; selection?: Record<string, unknown> } = {}) =>
  rpc.run({ profileId: 'main', db, selection: { match: b64(match), ...over.selection }, action, dryRun: over.dryRun ?? false });

const refused = (p: Promise<unknown>): Promise<AppError> =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: AppError) => e,
  );

describe('keys.actions: dry run and delete', () => {
  it('a dry run counts exactly, names 20 samples and estimates memory from MEMORY USAGE; nothing changes', async () => {
    await fill(1, 'price:eu', 150, { value: (i) => 'x'.repeat(10 + i * 7) });
    await fill(1, 'price:us', 90);
    const { final } = await start(1, 'price:eu:*', { op: 'delete' }, { dryRun: true });
    expect(final.kind).toBe('done');
    if (final.kind !== 'done') return;
    const r = final.report;
    expect(r).toMatchObject({ dryRun: true, matched: 150, acted: 0, skipped: 0, errors: 0, op: 'delete' });
    expect(r.samples).toHaveLength(20);
    for (const s of r.samples) expect(s.text).toMatch(/^price:eu:\d+$/);
    // 150 matched fit the 200-key reservoir: the estimate is exact.
    let sum = 0;
    for (let i = 0; i < 150; i++) sum += (await on(1).memory('USAGE', `price:eu:${i}`, 'SAMPLES', 5)) ?? 0;
    expect(r.memory).toEqual({ bytes: sum, low: sum, high: sum, sampled: 150 });
    expect(r.shards).toHaveLength(1);
    expect(r.shards[0]).toMatchObject({ matched: 150, done: true });
    expect(await count(1, 'price:eu:*')).toBe(150);
    expect(rpc.audit().filter((e) => e.target.includes('db 1'))).toEqual([]);
  });

  it('a dry run of more keys than its sample gives an interval around its estimate', async () => {
    await fill(2, 'big', 3000, { value: (i) => 'y'.repeat(i % 97) });
    const { final } = await start(2, 'big:*', { op: 'delete' }, { dryRun: true });
    if (final.kind !== 'done') throw new Error(final.kind);
    const m = final.report.memory;
    expect(final.report.matched).toBe(3000);
    expect(m?.sampled).toBe(200);
    expect(m?.low).toBeLessThan(m?.bytes ?? 0);
    expect(m?.high).toBeGreaterThan(m?.bytes ?? 0);
  });

  it('delete UNLINKs exactly the matching keys, reports and audits the counts', async () => {
    await fill(3, 'price:eu', 2500);
    await fill(3, 'price:us', 700);
    const { final, events } = await start(3, 'price:eu:*', { op: 'delete' });
    if (final.kind !== 'done') throw new Error(JSON.stringify(final));
    expect(final.report).toMatchObject({ matched: 2500, acted: 2500, skipped: 0, errors: 0, dryRun: false });
    expect(final.report.total).toBe(3200);
    expect(await count(3, 'price:eu:*')).toBe(0);
    expect(await count(3, 'price:us:*')).toBe(700);
    const progress = events.filter((e) => e.kind === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    const entries = rpc.audit().filter((e) => e.target === 'profile main db 3');
    expect(entries.map((e) => [e.action, e.outcome, e.user])).toEqual([
      ['keys.actions.delete', 'started', 'ops-user'],
      ['keys.actions.delete', 'ok', 'ops-user'],
    ]);
    expect(entries[1]?.detail).toContain('pattern "price:eu:*"');
    expect(entries[1]?.detail).toContain('matched 2500, acted 2500, skipped 0, errors 0');
    expect(rpc.store.resumable('main', new Set())).toEqual([]);
  });

  it('a delete that shrinks the table counts every key once (the next SCAN runs after the page is deleted)', async () => {
    // 95% of the keys go: the server shrinks its table during the run (its cron, made frequent
    // here), and a SCAN across a shrink can return keys it returned before. Each page's UNLINKs
    // run before the next SCAN, so those keys are gone by then and matched is the seed exactly.
    await fill(12, 'gone', 190_000);
    await fill(12, 'stay', 10_000);
    await on(11).config('SET', 'hz', '500');
    try {
      for (const maxLatencyMs of [null, 2]) {
        const { final } = await rpc.run({
          profileId: 'main',
          db: 12,
          selection: { match: b64('gone:*') },
          action: { op: 'delete' },
          dryRun: false,
          pace: { maxLatencyMs, maxReplicaLagBytes: 10 << 20 },
        });
        if (final.kind !== 'done') throw new Error(JSON.stringify(final));
        expect(final.report).toMatchObject({ matched: 190_000, acted: 190_000, skipped: 0, errors: 0 });
        expect(await count(12, 'gone:*')).toBe(0);
        expect(await count(12, 'stay:*')).toBe(10_000);
        await fill(12, 'gone', 190_000);
      }
    } finally {
      await on(11).config('SET', 'hz', '10');
    }
  }, 60_000);
});

describe('keys.actions: expire, persist and filters', () => {
  it('expire sets the TTL; with jitter every TTL lies within ±pct; NX leaves keys that have one (skipped)', async () => {
    await fill(4, 's', 400);
    await fill(4, 't', 100, { ttl: 50 });
    const plain = await start(4, 's:*', { op: 'expire', seconds: 1000 });
    expect(plain.final).toMatchObject({ kind: 'done', report: { matched: 400, acted: 400, skipped: 0 } });
    const ttls = await Promise.all(Array.from({ length: 400 }, (_, i) => on(4).ttl(`s:${i}`)));
    expect(ttls.every((t) => t > 990 && t <= 1000)).toBe(true);

    const jittered = await start(4, 's:*', { op: 'expire', seconds: 1000, jitterPct: 20 });
    expect(jittered.final).toMatchObject({ kind: 'done', report: { acted: 400 } });
    const spread = await Promise.all(Array.from({ length: 400 }, (_, i) => on(4).ttl(`s:${i}`)));
    expect(spread.every((t) => t >= 790 && t <= 1200)).toBe(true);
    expect(new Set(spread).size).toBeGreaterThan(50);
    expect(Math.min(...spread)).toBeLessThan(900);
    expect(Math.max(...spread)).toBeGreaterThan(1100);

    await on(4).persist('s:0');
    const nx = await start(4, '[st]:*', { op: 'expire', seconds: 5000, onlyNoTtl: true });
    expect(nx.final).toMatchObject({ kind: 'done', report: { matched: 500, acted: 1, skipped: 499 } });
    expect(await on(4).ttl('s:0')).toBeGreaterThan(4900);
    expect(await on(4).ttl('t:0')).toBeLessThanOrEqual(50);
  });

  it('persist removes TTLs; keys without one count as skipped', async () => {
    await fill(5, 'p', 300, { ttl: 100 });
    await fill(5, 'p:none', 50);
    const { final } = await start(5, 'p:*', { op: 'persist' });
    expect(final).toMatchObject({ kind: 'done', report: { matched: 350, acted: 300, skipped: 50 } });
    expect(await on(5).ttl('p:7')).toBe(-1);
  });

  it('type, TTL and memory filters select exactly', async () => {
    await fill(6, 'a:str', 200);
    await fill(6, 'a:hash', 120, { hash: true });
    await fill(6, 'a:short', 60, { ttl: 30 });
    await fill(6, 'a:long', 40, { ttl: 5000 });
    await fill(6, 'a:fat', 25, { value: () => 'z'.repeat(4000) });
    const dry = (selection: Record<string, unknown>) => start(6, 'a:*', { op: 'delete' }, { dryRun: true, selection });
    expect((await dry({ type: 'hash' })).final).toMatchObject({ report: { matched: 120 } });
    expect((await dry({ ttl: 'none' })).final).toMatchObject({ report: { matched: 345 } });
    expect((await dry({ ttl: 'below', ttlSeconds: 60 })).final).toMatchObject({ report: { matched: 60 } });
    expect((await dry({ ttl: 'above', ttlSeconds: 60 })).final).toMatchObject({ report: { matched: 40 } });
    expect((await dry({ minMemoryBytes: 4000 })).final).toMatchObject({ report: { matched: 25 } });
    expect((await dry({ type: 'string', ttl: 'none' })).final).toMatchObject({ report: { matched: 225 } });
    const del = await start(6, 'a:*', { op: 'delete' }, { selection: { type: 'hash' } });
    expect(del.final).toMatchObject({ kind: 'done', report: { matched: 120, acted: 120, skipped: 0 } });
    expect(await count(6, 'a:hash:*')).toBe(0);
    expect(await count(6, 'a:*')).toBe(325);
  });

  it('the idle filter keeps keys idle long enough; under an LFU policy it is refused with the reason', async () => {
    await fill(7, 'idle', 40);
    await new Promise((r) => setTimeout(r, 2_200));
    for (let i = 0; i < 15; i++) await on(7).get(`idle:${i}`);
    const { final } = await start(7, 'idle:*', { op: 'delete' }, { dryRun: true, selection: { idleMinSeconds: 2 } });
    expect(final).toMatchObject({ kind: 'done', report: { matched: 25 } });
    await on(7).config('SET', 'maxmemory-policy', 'allkeys-lfu');
    try {
      const lfu = await start(7, 'idle:*', { op: 'delete' }, { selection: { idleMinSeconds: 2 } });
      expect(lfu.final.kind).toBe('failed');
      if (lfu.final.kind === 'failed') {
        expect(lfu.final.error.code).toBe('VALIDATION');
        expect(lfu.final.error.message).toMatch(/allkeys-lfu.*LFU/);
      }
      expect(await count(7, 'idle:*')).toBe(40);
    } finally {
      await on(7).config('SET', 'maxmemory-policy', 'noeviction');
    }
  });

  it('a key changed between its match and the action is skipped, and counted so', async () => {
    await fill(8, 'c', 200);
    let changed = 0;
    rpc.hooks.beforeAct = async (keys) => {
      if (changed > 0) return;
      // Another client gives three of this page's matched keys a TTL (the filter no longer fits) and deletes two.
      const [a, b, c, d, e] = keys;
      await on(8).expire(a as Buffer, 600);
      await on(8).expire(b as Buffer, 600);
      await on(8).expire(c as Buffer, 600);
      await on(8).del(d as Buffer, e as Buffer);
      changed = 5;
    };
    try {
      const { final } = await start(8, 'c:*', { op: 'delete' }, { selection: { ttl: 'none' } });
      expect(changed).toBe(5);
      expect(final).toMatchObject({ kind: 'done', report: { matched: 200, acted: 195, skipped: 5, errors: 0 } });
      expect(await count(8, 'c:*')).toBe(3);
    } finally {
      rpc.hooks.beforeAct = undefined;
    }
  });
});

describe('keys.actions: cancel and resume', () => {
  it('a cancel reports exactly (acted + remaining = matched) and a resume adds up', async () => {
    await fill(9, 'r', 10_000);
    await fill(9, 'keep', 500);
    let pages = 0;
    let job = '';
    rpc.hooks.beforeAct = async () => {
      if (++pages === 1) await rpc.as('ops').invoke('keys.actions.cancel', { jobId: job });
    };
    let first;
    try {
      const { jobId } = await rpc.start('ops', { profileId: 'main', db: 9, selection: { match: b64('r:*') }, action: { op: 'delete' }, dryRun: false });
      job = jobId;
      first = (await rpc.follow(jobId)).final;
    } finally {
      rpc.hooks.beforeAct = undefined;
    }
    expect(first.kind).toBe('cancelled');
    if (first.kind !== 'cancelled') return;
    const a = first.report;
    expect(a.acted + a.skipped + a.errors).toBe(a.matched);
    expect(a.acted).toBeGreaterThan(0);
    expect(a.acted).toBeLessThan(10_000);
    expect(await count(9, 'r:*')).toBe(10_000 - a.acted);

    const { runs } = await rpc.as('ops').invoke('keys.actions.resumable', { profileId: 'main' });
    const cut = runs.find((r) => r.runId === a.runId);
    expect(cut).toMatchObject({ op: 'delete', db: 9, match: 'r:*', counts: { matched: a.matched, acted: a.acted } });

    const second = await rpc.run({ profileId: 'main', selection: { match: b64('ignored') }, action: { op: 'persist' }, dryRun: true, resume: a.runId });
    expect(second.final.kind).toBe('done');
    if (second.final.kind !== 'done') return;
    const b = second.final.report;
    expect(b).toMatchObject({ runId: a.runId, op: 'delete', dryRun: false, matched: 10_000, acted: 10_000, skipped: 0, errors: 0 });
    expect(await count(9, 'r:*')).toBe(0);
    expect(await count(9, 'keep:*')).toBe(500);
    expect((await rpc.as('ops').invoke('keys.actions.resumable', { profileId: 'main' })).runs.map((r) => r.runId)).not.toContain(a.runId);
  });
});

describe('keys.actions: who may act, and where', () => {
  it('an analyst is refused by the dispatcher; the read-only embedded profile by the handler', async () => {
    await fill(10, 'x', 10);
    const input = { profileId: 'main', db: 10, selection: { match: b64('x:*') }, action: { op: 'delete' }, dryRun: false };
    expect((await refused(rpc.start('analyst', input))).code).toBe('FORBIDDEN');
    expect((await refused(rpc.start('analyst', { ...input, dryRun: true }))).code).toBe('FORBIDDEN');
    const ro = await refused(rpc.start('ops', { ...input, profileId: 'embedded' }));
    expect(ro.code).toBe('READ_ONLY');
    expect(await count(10, 'x:*')).toBe(10);
  });

  it('every key of the DB (`*`, no filter) needs the DB typed back; a dry run does not', async () => {
    await fill(11, 'w', 30);
    const input = { profileId: 'main', db: 11, selection: { match: b64('*') }, action: { op: 'delete' }, dryRun: false };
    const e = await refused(rpc.start('ops', input));
    expect(e).toMatchObject({ code: 'VALIDATION', field: 'confirmDb' });
    expect((await refused(rpc.start('ops', { ...input, confirmDb: 3 }))).field).toBe('confirmDb');
    expect((await rpc.run({ ...input, dryRun: true })).final).toMatchObject({ kind: 'done', report: { matched: 30 } });
    expect(await count(11, '*')).toBe(30);
    expect((await rpc.run({ ...input, confirmDb: 11 })).final).toMatchObject({ kind: 'done', report: { acted: 30 } });
    expect(await count(11, '*')).toBe(0);
  });
});
