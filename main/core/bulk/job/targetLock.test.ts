import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { acquireTargetLock, bulkConnectionName, parseBulkConnectionName } from './targetLock';

const redis = useRedis();
afterAll(closeAdmins);

describe('bulk connection names', () => {
  it('round-trip, and the pool’s own bulk connections do not parse as loads', () => {
    expect(parseBulkConnectionName(bulkConnectionName('load_ab-1', 3))).toEqual({ jobId: 'load_ab-1', targetDb: 3 });
    expect(parseBulkConnectionName(bulkConnectionName('load_ab-1', 0, 5))).toEqual({ jobId: 'load_ab-1', targetDb: 0, stagingDb: 5 });
    expect(parseBulkConnectionName('cacheboard:bulk:profile1')).toBeUndefined();
  });
});

describe('one load per target', () => {
  it('refuses a second load on the same target in this process, and frees the target on release', async () => {
    const where = { host: '127.0.0.1', port: redis().port };
    const a = await adminClient(redis());
    const b = await adminClient(redis());
    const first = await acquireTargetLock(a, { ...where, jobId: 'load_first', targetDb: 0, stagingDb: 1 });
    await expect(acquireTargetLock(b, { ...where, jobId: 'load_second', targetDb: 1 })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `Load load_first (from this process) is already loading db 1 on 127.0.0.1:${redis().port}; wait for it or cancel it`,
    });
    const other = await acquireTargetLock(b, { ...where, jobId: 'load_other', targetDb: 2 });
    other.release();
    first.release();
    await a.client('SETNAME', 'test-admin'); // as if the first load's connection had closed
    (await acquireTargetLock(b, { ...where, jobId: 'load_third', targetDb: 0 })).release();
  });

  it('refuses a target another process is loading, seen by its connection name in CLIENT LIST', async () => {
    const elsewhere = await adminClient(redis());
    await elsewhere.client('SETNAME', bulkConnectionName('load_remote', 4));
    const mine = await adminClient(redis());
    await expect(acquireTargetLock(mine, { host: '127.0.0.1', port: redis().port, jobId: 'load_local', targetDb: 4 })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/^Load load_remote \(from 127\.0\.0\.1:\d+\) is already loading db 4/),
    });
    await elsewhere.quit();
    (await acquireTargetLock(mine, { host: '127.0.0.1', port: redis().port, jobId: 'load_local', targetDb: 4 })).release();
  });
});
