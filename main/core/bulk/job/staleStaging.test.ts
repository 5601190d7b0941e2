import { readdirSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { specFor } from '../../../../testing/profiles';
import { adminClient, useRedis } from '../../../../testing/redis';
import { cleanStagingLeftovers } from './leftovers';
import { runJob, useLoadDirs, writeUsersCsv, usersMapping } from './loadTestKit';
import { findStampedDbs, flushIfMarked } from './staleStaging';
import { writeStagingJournal } from './stagingJournal';
import { STAGING_MARKER_KEY, markerText, newMarker } from './stagingMarker';
import { bulkConnectionName } from './targetLock';

const redis = useRedis();
const dirs = useLoadDirs('cacheboard-stale-');
const where = () => ({ host: redis().host, port: redis().port });

beforeEach(async () => {
  const admin = await adminClient(redis());
  await admin.flushall();
});

/** A DB stamped by `jobId` (as a load killed mid-way leaves it), with `keys` data keys. */
async function stamp(db: number, jobId: string, keys: number, host?: string): Promise<string> {
  const admin = await adminClient(redis());
  await admin.select(db);
  const raw = markerText({ ...newMarker(jobId, 0), ...(host === undefined ? {} : { host }) });
  const m = admin.multi().set(STAGING_MARKER_KEY, raw);
  for (let i = 0; i < keys; i++) m.set(`partial:${i}`, String(i));
  await m.exec();
  await admin.select(0);
  return raw;
}

async function size(db: number): Promise<number> {
  const admin = await adminClient(redis());
  await admin.select(db);
  const n = await admin.dbsize();
  await admin.select(0);
  return n;
}

describe('staging markers', () => {
  it('a swap load verifies the exact key count beside its marker, and leaves no marker anywhere', async () => {
    const admin = await adminClient(redis());
    await admin.set('old', '1');
    const path = writeUsersCsv(dirs.dir(), 'u.csv', 5_000);
    const { report } = await runJob(redis(), { path, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir: dirs.journalDir() });
    // The marker was counted out: DBSIZE of staging held it beside the 5,000 keys.
    expect(report.outcome).toBe('ok');
    expect(report.verify).toMatchObject({ keys: 'ok', expectedKeys: 5_000, dbsize: 5_000 });
    expect(await size(0)).toBe(5_000);
    expect(await admin.exists(STAGING_MARKER_KEY)).toBe(0);
    expect(await size(report.stagingDb ?? -1)).toBe(0);
    expect(readdirSync(dirs.journalDir()).filter((n) => n.startsWith('staging-'))).toEqual([]);
  });

  it('flushes a DB stamped by a load that is not running, and only that one', async () => {
    const admin = await adminClient(redis());
    await stamp(3, 'load_dead1', 50);
    // A user's DB holding a key of the marker's name that is not ours, and a plain user DB.
    await admin.select(4);
    await admin.set(STAGING_MARKER_KEY, 'not ours');
    await admin.set('user', 'data');
    await admin.select(5);
    await admin.set('user', 'data');
    await admin.select(0);
    writeStagingJournal(dirs.journalDir(), { ...where(), jobId: 'load_dead1', db: 3, at: Date.now() });

    const c = admin.duplicate();
    const r = await cleanStagingLeftovers(c, where(), dirs.journalDir());
    c.disconnect();
    expect(r.cleaned.map((d) => [d.db, d.keys, d.jobId])).toEqual([[3, 51, 'load_dead1']]);
    expect(await size(3)).toBe(0);
    expect(await size(4)).toBe(2);
    expect(await size(5)).toBe(1);
    expect(readdirSync(dirs.journalDir())).toEqual([]);
  });

  it('leaves a DB whose load still holds its named connection', async () => {
    await stamp(2, 'load_alive1', 10);
    const admin = await adminClient(redis());
    const held = admin.duplicate();
    await held.client('SETNAME', bulkConnectionName('load_alive1', 0, 2));
    const c = admin.duplicate();
    const found = await findStampedDbs(c, where());
    expect(found.dbs.map((d) => [d.db, d.running])).toEqual([[2, 'yes']]);
    const r = await cleanStagingLeftovers(c, where(), dirs.journalDir());
    expect(r.cleaned).toEqual([]);
    expect(await size(2)).toBe(11);
    held.disconnect();
    // Its connection gone, the load is over: the next look flushes it.
    await new Promise((res) => setTimeout(res, 100));
    const again = await cleanStagingLeftovers(c, where(), dirs.journalDir());
    c.disconnect();
    expect(again.cleaned.map((d) => d.db)).toEqual([2]);
  });

  it('does not flush when the marker changed since it was read', async () => {
    const raw = await stamp(6, 'load_old1', 5);
    await stamp(6, 'load_new1', 0); // another load stamped the DB since
    const c = (await adminClient(redis())).duplicate();
    expect(await flushIfMarked(c, 6, raw, '7.0.0')).toBe(false);
    c.disconnect();
    expect(await size(6)).toBe(6);
  });

  it('a re-run stages into the stale DB it cleaned, not a new one beside it', async () => {
    await stamp(5, 'load_crashed1', 200);
    const path = writeUsersCsv(dirs.dir(), 'v.csv', 1_000);
    const { report } = await runJob(redis(), { path, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir: dirs.journalDir() });
    expect(report.outcome).toBe('ok');
    expect(report.stagingDb).toBe(5);
    expect(report.staleCleaned?.map((d) => [d.db, d.keys, d.jobId])).toEqual([[5, 201, 'load_crashed1']]);
    expect(report.warnings.some((w) => w.includes('stale staging DB 5'))).toBe(true);
    for (const db of [1, 2, 3, 4, 5]) expect(await size(db)).toBe(0);
    expect(await size(0)).toBe(1_000);
  });

  it('a user whose ACL refuses the marker key still loads, unstamped and told so', async () => {
    const admin = await adminClient(redis());
    await admin.call('ACL', 'SETUSER', 'usersonly', 'on', '>pw', '~user:*', '&*', '+@all');
    try {
      const path = writeUsersCsv(dirs.dir(), 'acl.csv', 500);
      const { report } = await runJob(redis(), {
        path,
        format: 'csv',
        mapping: usersMapping,
        mode: 'swap',
        journalDir: dirs.journalDir(),
        spec: { ...specFor(redis()), username: 'usersonly', password: 'pw' },
      });
      expect(report.outcome).toBe('ok');
      expect(report.verify).toMatchObject({ keys: 'ok', dbsize: 500 });
      expect(report.warnings.some((w) => /Staging DB 15 could not be stamped \(NOPERM/.test(w))).toBe(true);
      expect(await size(0)).toBe(500);
      expect(await size(15)).toBe(0);
    } finally {
      await admin.call('ACL', 'DELUSER', 'usersonly');
    }
  });
});
