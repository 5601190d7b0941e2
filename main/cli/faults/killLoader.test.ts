import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../../testing/redis';
import { writeUsersCsv } from '../../core/bulk/job/loadTestKit';
import { STAGING_MARKER_KEY, parseMarker } from '../../core/bulk/job/stagingMarker';
import { useLiveServer } from '../liveServerTestKit';
import { cli, expectNothingLeft, killHard, pauseWhenStaged, pausedAt, SAVE, spawnLoad, stagedKeys } from './faultTestKit';

/*
 * Fault cases: `cacheboard load` (swap mode) killed with SIGKILL at four points, so
 * none of its own cleanup runs; then a second CLI run finds what it left and cleans it.
 */
const { redis, dir } = useLiveServer('cb-fault-kill-');
const ROWS = 300_000;
let csv: string;
let small: string;
beforeAll(() => {
  csv = writeUsersCsv(dir, 'users.csv', ROWS);
  small = writeUsersCsv(dir, 'small.csv', 20_000);
});

// Real processes on a shared machine: each case gets a minute.
describe('kill -9 of the CLI loader', { timeout: 60_000 }, () => {
  it('at ~10%: the live DB is untouched; the next `cacheboard info` restores save and flushes the stamped staging DB', async () => {
    const load = spawnLoad(redis(), csv, { dir });
    const staged = await pauseWhenStaged(redis(), ROWS / 10);
    expect(staged).toBeLessThan(ROWS);
    const admin = await adminClient(redis());
    expect(((await admin.config('GET', 'save')) as string[])[1]).toBe('');
    await killHard(redis(), load);

    // Left behind: saves off, a partial staging DB holding the dead load's marker.
    await admin.select(15);
    expect(parseMarker(await admin.get(STAGING_MARKER_KEY))).toMatchObject({ jobId: `load_cli${load.child.pid}`, phase: 'loading' });
    await admin.select(0);

    const info = await cli(redis(), load.dataDir, 'info');
    expect(info.code).toBe(0);
    expect(info.err).toContain('Restored automatic saves');
    expect(info.err).toMatch(/Flushed stale staging DB 15 on .* \(\d+ keys, a partial load\) left by load load_cli/);
    await expectNothingLeft(redis(), load.dataDir, { kind: 'old' });
  });

  it('at ~10%: `cacheboard demo-data`, which connects without the pool, cleans up first too', async () => {
    const load = spawnLoad(redis(), csv, { dir });
    await pauseWhenStaged(redis(), ROWS / 10);
    await killHard(redis(), load);

    // DB 0 holds the live key, so the demo refuses to write there; the cleanup has run by then.
    const demo = await cli(redis(), load.dataDir, 'demo-data', '--users', '10', '--days', '1');
    expect(demo.code).toBe(1);
    expect(demo.err).toContain('Restored automatic saves');
    expect(demo.err).toMatch(/Flushed stale staging DB 15 on .* left by load load_cli/);
    await expectNothingLeft(redis(), load.dataDir, { kind: 'old' });
  });

  it('at ~90%: live DB as it was or as the load completed it; `doctor --fix` cleans up the rest', async () => {
    const load = spawnLoad(redis(), csv, { dir });
    await pauseWhenStaged(redis(), (ROWS * 9) / 10);
    await killHard(redis(), load);

    const before = await cli(redis(), load.dataDir, 'doctor', '--json');
    expect(before.code).toBe(1);
    const listed = JSON.parse(before.out) as { servers: { stagingDbs: { db: number; running: string }[]; journal: { kind: string }[] }[] };
    expect(listed.servers[0]?.stagingDbs).toEqual([expect.objectContaining({ db: 15, running: 'no' })]);
    expect(listed.servers[0]?.journal.map((j) => j.kind).sort()).toEqual(['notify', 'save', 'staging']);

    const fixed = await cli(redis(), load.dataDir, 'doctor', '--fix');
    expect(fixed.code, fixed.out).toBe(0);
    expect(fixed.out).toContain('fixed: Flushed stale staging DB 15');
    await expectNothingLeft(redis(), load.dataDir, { kind: 'either', keys: ROWS });
  });

  it('during verification: everything staged, nothing switched; a re-run reuses the stale DB and goes live', async () => {
    const load = spawnLoad(redis(), small, { dir, pauseAt: 'verifying' });
    await pausedAt(load, 'verifying');
    expect(await stagedKeys(redis())).toBe(20_000);
    await killHard(redis(), load);
    const admin = await adminClient(redis());
    expect(await admin.get('live')).toBe('before');

    const rerun = spawnLoad(redis(), small, { dir, dataDir: load.dataDir });
    expect(await rerun.exited, rerun.err()).toBe(0);
    const report = JSON.parse(rerun.out()) as { outcome: string; swapped: boolean };
    // --json: the cleanup is in the report (without it, a warning line on stderr).
    expect(report).toMatchObject({
      outcome: 'ok',
      swapped: true,
      stale_cleaned: [{ db: 15, keys: 20_001, job_id: `load_cli${load.child.pid}`, phase: 'loading' }],
    });
    await expectNothingLeft(redis(), load.dataDir, { kind: 'new', keys: 20_000 });
  });

  it('right after SWAPDB: the new data is live, the old data sits stamped in staging; `cacheboard info` flushes it', async () => {
    const load = spawnLoad(redis(), small, { dir, pauseAt: 'swapped' });
    await pausedAt(load, 'swapped');
    await killHard(redis(), load);
    const admin = await adminClient(redis());
    expect(await admin.exists(STAGING_MARKER_KEY)).toBe(0); // the marker never goes live
    expect(await admin.dbsize()).toBe(20_000);
    await admin.select(15);
    expect(parseMarker(await admin.get(STAGING_MARKER_KEY))?.phase).toBe('old-data');
    expect(await admin.get('live')).toBe('before');
    await admin.select(0);

    const info = await cli(redis(), load.dataDir, 'info');
    expect(info.code).toBe(0);
    expect(info.err).toContain('the data a swap replaced');
    await expectNothingLeft(redis(), load.dataDir, { kind: 'new', keys: 20_000 });
    expect(((await admin.config('GET', 'save')) as string[])[1]).toBe(SAVE);
  });
});
