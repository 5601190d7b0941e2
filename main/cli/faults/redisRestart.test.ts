import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, startRedis, type RedisProcess } from '../../../testing/redis';
import { writeUsersCsv } from '../../core/bulk/job/loadTestKit';
import { cli, expectNothingLeft, pauseWhenStaged, SAVE, spawnLoad } from './faultTestKit';

/*
 * Fault case: the server itself goes away mid-load (SHUTDOWN NOSAVE) and comes back from
 * its last RDB on the same port. The load fails; nothing it staged survives the restart;
 * the next CLI run clears the journal it left.
 */
const dir = mkdtempSync(join(tmpdir(), 'cb-fault-restart-'));
const redisDir = mkdtempSync(join(dir, 'redis-'));
let redis: RedisProcess;
let csv: string;
beforeAll(async () => {
  csv = writeUsersCsv(dir, 'users.csv', 300_000);
  redis = await startRedis({ dir: redisDir, args: ['--save', SAVE] });
});
afterAll(async () => {
  await closeAdmins();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Real processes on a shared machine: each case gets a minute.
describe('Redis restarted mid-load', { timeout: 60_000 }, () => {
  it('SHUTDOWN NOSAVE while staging: the load fails, the live data comes back from the RDB, nothing of ours is left', async () => {
    const admin = await adminClient(redis);
    await admin.set('live', 'before');
    await admin.save(); // the live data on disk, as a production server has it
    const load = spawnLoad(redis, csv, { dir });
    await pauseWhenStaged(redis, 30_000);
    const port = redis.port;
    await admin.client('UNPAUSE');
    await admin.call('SHUTDOWN', 'NOSAVE').catch(() => undefined); // the reply is the connection closing
    await closeAdmins();
    expect(await load.exited).toBe(1);
    expect(JSON.parse(load.out())).toMatchObject({ outcome: 'failed', swapped: false });

    redis = await startRedis({ dir: redisDir, port, args: ['--save', SAVE] });
    const info = await cli(redis, load.dataDir, 'info');
    expect(info.code).toBe(0);
    await expectNothingLeft(redis, load.dataDir, { kind: 'old' });
  });
});
