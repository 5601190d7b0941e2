import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { infoNumber } from '../../info/infoSnapshot';
import { parseInfo } from '../../info/parseInfo';
import { adminClient, useRedis } from '../../../../testing/redis';
import { runJob, snapshotDb, useLoadDirs, usersMapping, writeUsersCsv } from './loadTestKit';

const redis = useRedis();

const { dir, journalDir } = useLoadDirs('cacheboard-evict-');
let users: string;
beforeAll(() => {
  users = writeUsersCsv(dir(), 'users500k.csv', 500_000); // ~7.5 MB: the pipe takes a good half second
});
beforeEach(async () => {
  const admin = await adminClient(redis());
  await admin.config('SET', 'maxmemory', '0');
  await admin.config('SET', 'maxmemory-policy', 'noeviction');
  await admin.flushall();
});

async function stat(section: string, name: string): Promise<number> {
  const admin = await adminClient(redis());
  return infoNumber(parseInfo(await admin.info(section))[section]?.[name]);
}

/** 1,000 live keys in DB 0, then maxmemory just above what is used now, under `policy`. */
async function tightServer(policy: string): Promise<Map<string, string>> {
  const admin = await adminClient(redis());
  await admin.select(0);
  const m = admin.multi();
  for (let i = 0; i < 1_000; i++) m.set(`live:${i}`, `value-${i}`);
  await m.exec();
  const used = await stat('memory', 'used_memory');
  await admin.config('SET', 'maxmemory', String(used + 512 * 1024));
  await admin.config('SET', 'maxmemory-policy', policy);
  return snapshotDb(admin, 0);
}

describe('a load that may make Redis evict', () => {
  it.each(['swap', 'flush', 'merge'] as const)('%s under allkeys-lru is refused at preflight when the input does not fit, nothing written', async (mode) => {
    const before = await tightServer('allkeys-lru');
    const evictedBefore = await stat('stats', 'evicted_keys');
    const { report } = await runJob(redis(), { path: users, format: 'csv', mapping: usersMapping, mode, journalDir: journalDir() });
    expect(report).toMatchObject({ outcome: 'failed', swapped: false, records: 0, error: { code: 'VALIDATION', field: 'allowEvictionRisk' } });
    expect(report.error?.message).toMatch(
      /^The input \(\d\.\d MB\) may not fit on 127\.0\.0\.1:\d+: maxmemory is .* and maxmemory-policy allkeys-lru makes Redis evict keys of any DB.*--allow-eviction-risk/,
    );
    const admin = await adminClient(redis());
    expect(await snapshotDb(admin, 0)).toEqual(before);
    await admin.select(15);
    expect(await admin.dbsize()).toBe(0);
    expect(await stat('stats', 'evicted_keys')).toBe(evictedBefore);
  });

  it('volatile-lru counts as evicting too (keys with a TTL, of any DB)', async () => {
    await tightServer('volatile-lru');
    const { report } = await runJob(redis(), { path: users, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir: journalDir() });
    expect(report.error).toMatchObject({ code: 'VALIDATION', field: 'allowEvictionRisk' });
  });

  it('noeviction is not refused: the writes fail with OOM, counted as errors, and the live DB is kept', async () => {
    const before = await tightServer('noeviction');
    const { report } = await runJob(redis(), { path: users, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir: journalDir() });
    // The watch ran and saw nothing to stop for: noeviction never evicts.
    expect(report).toMatchObject({ outcome: 'failed', swapped: false, evictedKeys: 0, error: { code: 'REDIS' } });
    expect(report.firstErrors[0]?.message).toMatch(/^OOM/);
    expect(report.warnings.join('\n')).toMatch(/may not fit/);
    expect(await snapshotDb(await adminClient(redis()), 0)).toEqual(before);
  });

  it('with --allow-eviction-risk, allkeys-lru: the load stops at the first eviction and reports the live DB as it really is', async () => {
    await tightServer('allkeys-lru');
    const { report } = await runJob(redis(), {
      path: users,
      format: 'csv',
      mapping: usersMapping,
      mode: 'swap',
      allowEvictionRisk: true,
      journalDir: journalDir(),
    });
    expect(report).toMatchObject({ outcome: 'failed', swapped: false, error: { code: 'REDIS' } });
    expect(report.error?.message).toMatch(
      /^Redis evicted \d+ keys? during the load \(maxmemory .*, maxmemory-policy allkeys-lru\): the load stopped at the first eviction/,
    );
    expect(report.evictedKeys).toBeGreaterThan(0);
    expect(report.records).toBeLessThan(500_000);
    const admin = await adminClient(redis());
    await admin.select(15);
    expect(await admin.dbsize()).toBe(0); // staging discarded
    // The report's word on DB 0 is a measurement: it matches what is there now.
    await admin.select(0);
    const now = await admin.dbsize();
    const check = report.liveCheck;
    expect(check).toMatchObject({ db: 0, keysBefore: 1_000, keysAfter: now, sampled: 16 });
    expect(check?.unchanged).toBe(now === 1_000 && check?.missing === 0);
    expect(report.error?.message).toContain(
      check?.unchanged === true
        ? 'DB 0 is untouched (checked: 1000 keys before and after'
        : `DB 0 CHANGED during the load: it held 1000 keys before and holds ${now} now`,
    );
  });

  it('with --allow-eviction-risk, volatile-lru and a TTL on the loaded keys: stopped at the first eviction, the live DB checked untouched', async () => {
    const before = await tightServer('volatile-lru');
    const { report } = await runJob(redis(), {
      path: users,
      format: 'csv',
      mapping: { ...usersMapping, ttl: 3600 },
      mode: 'swap',
      allowEvictionRisk: true,
      journalDir: journalDir(),
    });
    expect(report).toMatchObject({ outcome: 'failed', swapped: false, error: { code: 'REDIS' } });
    expect(report.error?.message).toMatch(
      /the load stopped at the first eviction.*DB 0 is untouched \(checked: 1000 keys before and after, the 16 keys sampled before all still there\); staging DB 15 was flushed/,
    );
    expect(report.liveCheck).toEqual({ db: 0, keysBefore: 1_000, keysAfter: 1_000, sampled: 16, missing: 0, unchanged: true });
    expect(report.records).toBeLessThan(500_000);
    expect(await snapshotDb(await adminClient(redis()), 0)).toEqual(before);
  });

  it('with --allow-eviction-risk, a merge stops at the first eviction as well', async () => {
    await tightServer('allkeys-lru');
    const { report } = await runJob(redis(), {
      path: users,
      format: 'csv',
      mapping: usersMapping,
      mode: 'merge',
      allowEvictionRisk: true,
      journalDir: journalDir(),
    });
    expect(report).toMatchObject({ outcome: 'failed', error: { code: 'REDIS' } });
    expect(report.error?.message).toMatch(/the load stopped at the first eviction.*DB 0 is partially loaded/);
    expect(report.records).toBeLessThan(500_000);
  });
});
