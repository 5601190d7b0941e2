import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LoadEvent } from '../../../../app/schemas/bulk';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { phasesOf, runJob, snapshotDb, usersMapping, writeResp, writeUsersCsv } from './loadTestKit';
import { MSET_PAIRS } from '../sources/msetRun';

// Automatic saves on, as in production: the load must turn them off and put them back.
const redis = useRedis({ args: ['--save', '3600 1'] });

let dir: string;
let journalDir: string;
let users200k: string;
let users100k: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cacheboard-swap-'));
  users200k = writeUsersCsv(dir, 'users200k.csv', 200_000);
  users100k = writeUsersCsv(dir, 'users100k.csv', 100_000);
});
afterAll(async () => {
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  journalDir = mkdtempSync(join(dir, 'journal-'));
  const admin = await adminClient(redis());
  await admin.flushall();
  await admin.config('SET', 'save', '3600 1');
});

async function fillOld(count: number): Promise<void> {
  const admin = await adminClient(redis());
  const m = admin.multi();
  for (let i = 0; i < count; i++) m.set(`old:${i}`, `old-${i}`);
  m.hset('old:hash', { a: '1', b: '2' });
  m.rpush('old:list', 'x', 'y', 'z');
  m.zadd('old:zset', 1, 'one', 2, 'two');
  m.sadd('old:set', 'p', 'q');
  m.set('old:ttl', 'v', 'EX', 3600);
  await m.exec();
}

async function saveConfig(): Promise<string> {
  const admin = await adminClient(redis());
  return ((await admin.config('GET', 'save')) as string[])[1] ?? '';
}

describe('swap mode', () => {
  it('ends swapped: every sampled key is right, the old data is gone from target and staging', async () => {
    await fillOld(1_000);
    const { report, events } = await runJob(redis(), {
      path: users200k,
      format: 'csv',
      mapping: usersMapping,
      mode: 'swap',
      journalDir,
    });
    expect(report).toMatchObject({
      outcome: 'ok',
      swapped: true,
      stagingDb: 15,
      records: 200_000,
      // Each MSET carries MSET_PAIRS rows.
      commands: Math.ceil(200_000 / MSET_PAIRS),
      errors: 0,
      verify: { replies: true, keys: 'ok', expectedKeys: 200_000, dbsize: 200_000 },
      saveConfig: { original: '3600 1', restored: true },
    });
    expect(phasesOf(events)).toEqual(['preflight', 'staging', 'loading', 'verifying', 'swapping', 'cleanup', 'done']);
    expect(events.at(-1)).toEqual({ kind: 'report', report });

    const admin = await adminClient(redis());
    await admin.select(0);
    expect(await admin.dbsize()).toBe(200_000);
    const sample = Array.from({ length: 1_000 }, () => Math.floor(Math.random() * 200_000));
    const values = await admin.mget(sample.map((i) => `user:${i}`));
    expect(values).toEqual(sample.map((i) => `value-${i}`));
    expect(await admin.exists('old:0', 'old:hash', 'old:ttl')).toBe(0);
    await admin.select(15);
    expect(await admin.dbsize()).toBe(0); // the old data, FLUSHDB ASYNC'd after the swap
    expect(await saveConfig()).toBe('3600 1');
    expect(readdirSync(journalDir)).toEqual([]);

    // At most ten progress events a second.
    const progress = events.filter((e): e is Extract<LoadEvent, { kind: 'progress' }> => e.kind === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    for (let i = 2; i < progress.length; i++) {
      expect((progress[i] as { at: number }).at - (progress[i - 2] as { at: number }).at).toBeGreaterThanOrEqual(100);
    }
    expect(progress.at(-1)).toMatchObject({ replies: Math.ceil(200_000 / MSET_PAIRS), bytesTotal: expect.any(Number) });
  });

  it('a failed load leaves the live DB untouched', async () => {
    await fillOld(500);
    const admin = await adminClient(redis());
    const before = await snapshotDb(admin, 0);
    const commands: string[][] = [];
    for (let i = 0; i < 1_000; i++) commands.push(['SET', `k:${i}`, `v${i}`]);
    for (let i = 0; i < 10; i++) commands.push(['LPUSH', `k:${i}`, 'x']); // WRONGTYPE: k:i is a string
    const path = writeResp(dir, 'bad.resp', commands);

    const { report } = await runJob(redis(), { path, format: 'resp', mode: 'swap', maxErrors: 5, journalDir });
    expect(report.outcome).toBe('failed');
    expect(report.swapped).toBe(false);
    expect(report.error).toMatchObject({
      code: 'REDIS',
      message: expect.stringMatching(
        /too many errors.*DB 0 is untouched \(checked: 505 keys before and after, the 16 keys sampled before all still there\); staging DB 15 was flushed/,
      ),
    });
    expect(report.errors).toBeGreaterThan(5);
    expect(report.firstErrors[0]).toEqual({ position: expect.stringMatching(/^bad\.resp:\d+$/), message: expect.stringMatching(/^WRONGTYPE/) });
    // Each command here is 7 lines of RESP: the first LPUSH starts on line 7 * 1000 + 1.
    expect(report.firstErrors[0]?.position).toBe('bad.resp:7001');

    expect(await snapshotDb(admin, 0)).toEqual(before);
    await admin.select(15);
    expect(await admin.dbsize()).toBe(0);
    expect(report.saveConfig).toEqual({ original: '3600 1', restored: true });
    expect(await saveConfig()).toBe('3600 1');
  });

  it('a concurrent reader never sees a partial dataset', async () => {
    await fillOld(5_000);
    const reader = await adminClient(redis());
    const seen = new Set<number>();
    let samples = 0;
    let running = true;
    const readLoop = (async () => {
      while (running) {
        seen.add(await reader.dbsize());
        samples++;
      }
    })();
    const { report } = await runJob(redis(), { path: users100k, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir });
    running = false;
    await readLoop;
    seen.add(await reader.dbsize());
    expect(report.outcome).toBe('ok');
    expect(samples).toBeGreaterThan(20);
    expect([...seen].sort((a, b) => a - b)).toEqual([5_005, 100_000]);
  });

  it('refuses a non-empty staging DB without --force, and flushes it first with --force', async () => {
    await fillOld(10);
    const admin = await adminClient(redis());
    await admin.select(3);
    await admin.mset({ s1: '1', s2: '2', s3: '3' });
    const before = await snapshotDb(admin, 0);
    const path = writeResp(dir, 'small.resp', [
      ['SET', 'a', '1'],
      ['SET', 'b', '2'],
    ]);

    const refused = await runJob(redis(), { path, format: 'resp', mode: 'swap', stagingDb: 3, journalDir });
    expect(refused.report).toMatchObject({
      outcome: 'failed',
      error: { code: 'VALIDATION', message: expect.stringMatching(/^Staging DB 3 on 127\.0\.0\.1:\d+ holds 3 keys: .*--force/) },
    });
    expect(await snapshotDb(admin, 0)).toEqual(before);
    await admin.select(3);
    expect(await admin.dbsize()).toBe(3);

    // Two keys for fifteen: past the default --max-shrink, so that is lifted too.
    const forced = await runJob(redis(), { path, format: 'resp', mode: 'swap', stagingDb: 3, force: true, maxShrink: 100, journalDir });
    expect(forced.report).toMatchObject({ outcome: 'ok', swapped: true, stagingDb: 3 });
    expect(forced.report.warnings).toContain('Flushed staging DB 3 (3 keys) first, as --force asked');
    await admin.select(0);
    expect((await admin.keys('*')).sort()).toEqual(['a', 'b']);
  });

  it('cancel mid-load leaves the live DB untouched and restores the save config', async () => {
    await fillOld(100);
    const admin = await adminClient(redis());
    const before = await snapshotDb(admin, 0);
    const abort = new AbortController();
    const { report, events } = await runJob(
      redis(),
      { path: users200k, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir },
      { signal: abort.signal, onEvent: (e) => e.kind === 'progress' && e.replies > 0 && abort.abort() },
    );
    expect(report).toMatchObject({ outcome: 'cancelled', swapped: false, error: { code: 'CANCELLED' } });
    expect(report.error?.message).toMatch(/cancelled.*DB 0 is untouched \(checked: 105 keys before and after.*\); staging DB 15 was flushed/);
    expect(report.liveCheck).toEqual({ db: 0, keysBefore: 105, keysAfter: 105, sampled: 16, missing: 0, unchanged: true });
    expect(report.replies).toBeLessThan(200_000);
    expect(phasesOf(events).slice(-2)).toEqual(['cleanup', 'cancelled']);
    expect(await snapshotDb(admin, 0)).toEqual(before);
    await admin.select(15);
    expect(await admin.dbsize()).toBe(0);
    expect(report.saveConfig).toEqual({ original: '3600 1', restored: true });
    expect(await saveConfig()).toBe('3600 1');
  });

  it('refuses input that SELECTs another DB before the SELECT reaches the server', async () => {
    await fillOld(10);
    const admin = await adminClient(redis());
    const before = await snapshotDb(admin, 0);
    const commands: string[][] = [];
    for (let i = 0; i < 100; i++) commands.push(['SET', `s:${i}`, 'staged']);
    commands.push(['SELECT', '0'], ['SET', 'old:0', 'overwritten']); // a multi-DB dump would aim at the live DB
    const path = writeResp(dir, 'select.resp', commands);
    const { report } = await runJob(redis(), { path, format: 'resp', mode: 'swap', journalDir });
    expect(report).toMatchObject({ outcome: 'failed', swapped: false, error: { code: 'VALIDATION', message: expect.stringMatching(/contains SELECT/) } });
    expect(await snapshotDb(admin, 0)).toEqual(before);
    await admin.select(15);
    expect(await admin.dbsize()).toBe(0);
  });

  it('reports a missing input file as NOT_FOUND, touching nothing', async () => {
    const { report } = await runJob(redis(), { path: join(dir, 'nope.csv'), format: 'csv', mapping: usersMapping, mode: 'swap', journalDir });
    expect(report).toMatchObject({ outcome: 'failed', error: { code: 'NOT_FOUND', message: expect.stringContaining('"nope.csv" no longer exists') } });
    expect(report.saveConfig).toBeUndefined();
  });

  it('refuses a second load on the same target, naming the first', async () => {
    const abort = new AbortController();
    let secondReport: Promise<unknown> | undefined;
    let firstId = '';
    const first = runJob(
      redis(),
      { path: users200k, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir, jobId: 'load_first1' },
      {
        signal: abort.signal,
        onEvent: (e) => {
          if (e.kind === 'phase' && e.phase === 'loading' && secondReport === undefined) {
            firstId = 'load_first1';
            secondReport = runJob(redis(), { path: users100k, format: 'csv', mapping: usersMapping, mode: 'merge', journalDir }).then((r) => {
              abort.abort();
              return r.report;
            });
          }
        },
      },
    );
    await first;
    expect(firstId).toBe('load_first1');
    expect(await secondReport).toMatchObject({
      outcome: 'failed',
      error: {
        code: 'CONFLICT',
        message: expect.stringMatching(/^Load load_first1 \(from this process\) is already loading db 0 on 127\.0\.0\.1:\d+; wait for it or cancel it/),
      },
    });
  });
});
