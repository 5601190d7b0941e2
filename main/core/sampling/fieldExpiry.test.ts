import { afterAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { connectionFor } from '../resp/rawTarget';
import { RespPipe } from '../resp/respPipe';
import { FieldExpiryCheck } from './fieldExpiry';
import { fill, sampleOf } from './samplingTestKit';

const redis = useRedis();
afterAll(closeAdmins);

describe('hash-field expiry on a server without it (the Redis 7.0 here)', () => {
  it('counts hashes by their key TTL alone and sends no field command, since its COMMAND INFO lacks hash-field expiry', async () => {
    const admin = await adminClient(redis());
    await admin.config('RESETSTAT');
    await fill(admin, 50, (p, i) => p.hset(`small:${i}`, 'a', '1'));
    await admin.hset('big', Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, 'v'])));
    await admin.hset('ttl', 'a', '1');
    await admin.expire('ttl', 3_000);
    const { report } = await sampleOf(redis(), { method: 'census' });
    expect(Object.fromEntries(report.ttl.map((t) => [t.bucket, t.count]))).toMatchObject({ none: 51, fields: 0, lt1h: 1 });
    const stats = await admin.info('commandstats');
    expect(stats).not.toMatch(/cmdstat_hrandfield|cmdstat_hpttl/);
    // 7.0 reports neither subexpiry nor expired_subkeys: the report leaves them out rather than saying 0.
    expect(report.server).not.toHaveProperty('subexpiry');
    expect(report.server).not.toHaveProperty('expiredSubkeys');
  });

  it('takes the dataset figure to check a sample against only while the DB sampled is the only one holding keys', async () => {
    const admin = await adminClient(redis());
    expect((await sampleOf(redis(), { method: 'census' })).report.server?.datasetBytes).toBeGreaterThan(0);
    await admin.select(5);
    await admin.set('elsewhere', 'x');
    await admin.select(0);
    expect((await sampleOf(redis(), { method: 'census' })).report.server).not.toHaveProperty('datasetBytes');
  });

  it("reads Redis's listpackex encoding as fields that expire without asking the server anything", async () => {
    const conn = await connectionFor(specFor(redis()), 0, 'cacheboard:test').connect();
    const pipe = new RespPipe(conn, { host: '127.0.0.1', port: redis().port });
    try {
      // An empty hash (length 0) has nothing to expire; a listpackex one does. No command is sent for either.
      const got = await new FieldExpiryCheck(pipe).check([Buffer.from('a'), Buffer.from('b')], ['listpackex', 'hashtable'], [3, 0]);
      expect(got).toEqual([true, false]);
    } finally {
      pipe.destroy();
    }
  });
});
