import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';
import { STAGING_MARKER_KEY, markerText, newMarker } from '../core/bulk/job/stagingMarker';
import { bulkConnectionName } from '../core/bulk/job/targetLock';

const redis = useRedis();
const dataDir = mkdtempSync(join(tmpdir(), 'cb-doctor-'));
afterAll(async () => {
  await closeAdmins();
  rmSync(dataDir, { recursive: true, force: true });
});

const doctor = (...args: string[]) => runCli(['doctor', '--url', `${redis().url}/0`, ...args], undefined, { CACHEBOARD_DATA_DIR: dataDir });

interface Listed {
  servers: {
    server: string;
    stagingDbs: { db: number; keys: number; jobId: string; running: string; phase: string }[];
    scratch: { db: number; keys: number }[];
    connections: { name: string }[];
    fixed: string[];
  }[];
  clean: boolean;
}

describe('cacheboard doctor', () => {
  it('lists what was left, and --fix cleans only what is ours and over', async () => {
    const admin = await adminClient(redis());
    const at = async (db: number, fn: () => Promise<unknown>) => {
      await admin.select(db);
      await fn();
      await admin.select(0);
    };
    // A dead load's staging DB, a running load's one (its named connection is open), a user's DB, scratch keys of a killed trial.
    await at(3, () =>
      admin
        .multi()
        .set(STAGING_MARKER_KEY, markerText(newMarker('load_dead7', 0)))
        .set('partial', '1')
        .exec(),
    );
    await at(4, () =>
      admin
        .multi()
        .set(STAGING_MARKER_KEY, markerText(newMarker('load_live7', 0)))
        .set('partial', '1')
        .exec(),
    );
    await at(5, () => admin.multi().set(STAGING_MARKER_KEY, 'a user value').set('mine', '1').exec());
    await at(2, () => admin.multi().set('cacheboard:trial:deadrun:key:1', 'x').set('cacheboard:trial:deadrun:key:2', 'x').exec());
    const running = admin.duplicate();
    await running.client('SETNAME', bulkConnectionName('load_live7', 0, 4));
    try {
      const before = await doctor('--json');
      expect(before.code).toBe(1);
      const listed = JSON.parse(before.out) as Listed;
      const s = listed.servers[0];
      expect(listed.clean).toBe(false);
      expect(s?.server).toMatch(/^Redis \d+\.\d+\.\d+$/);
      expect(s?.stagingDbs.map((d) => [d.db, d.keys, d.jobId, d.running, d.phase])).toEqual([
        [3, 2, 'load_dead7', 'no', 'loading'],
        [4, 2, 'load_live7', 'yes', 'loading'],
      ]);
      expect(s?.scratch).toEqual([{ db: 2, keys: 2 }]);
      expect(s?.connections.map((c) => c.name)).toContain('cacheboard:bulk:load_live7:db0:staging4');

      const fixed = await doctor('--fix');
      expect(fixed.code, fixed.out).toBe(0);
      expect(fixed.out).toContain('fixed: Flushed stale staging DB 3');
      expect(fixed.out).toContain('fixed: Unlinked 2 scratch keys under cacheboard:trial: in DB 2');
      expect(fixed.out).toContain('note: Staging DB 4: load load_live7 is still running; left alone');
      const sizes: number[] = [];
      for (const db of [2, 3, 4, 5]) {
        await admin.select(db);
        sizes.push(await admin.dbsize());
      }
      await admin.select(0);
      expect(sizes).toEqual([0, 0, 2, 2]);
    } finally {
      running.disconnect();
      await admin.flushall();
    }
  });

  it('lists a staging DB a failed load left "held" (other clients wrote into it) with the command to empty it, and --fix leaves it', async () => {
    const admin = await adminClient(redis());
    await admin.select(9);
    await admin
      .multi()
      .set(STAGING_MARKER_KEY, markerText({ ...newMarker('load_held7', 0), phase: 'held' }))
      .set('item:1', 'x')
      .set('app:order:1', 'y')
      .exec();
    try {
      const command = `redis-cli -h 127.0.0.1 -p ${redis().port} -n 9 FLUSHDB ASYNC`;
      const listed = await doctor();
      expect(listed.code).toBe(1);
      expect(listed.out).toContain('staging DB 9: 3 keys, load load_held7');
      expect(listed.out).toContain(
        `note: Staging DB 9: left by load load_held7 because it holds keys that load did not write; look at it, then empty it with: ${command}`,
      );
      const fixed = await doctor('--fix');
      expect(fixed.code).toBe(1);
      expect(fixed.out).not.toContain('Flushed stale staging DB 9');
      expect(await admin.dbsize()).toBe(3);
    } finally {
      await admin.flushall();
      await admin.select(0);
    }
  });
});
