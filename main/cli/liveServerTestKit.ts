import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach } from 'vitest';
import { adminClient, closeAdmins, useRedis, type RedisProcess } from '../../testing/redis';

/**
 * A private redis-server set up as production is, for tests of a load that must leave it
 * as it found it: automatic saves on (the load turns them off and must put them back), a
 * live key in DB 0 before each test, and a temp folder for the inputs, removed at the end.
 */
export function useLiveServer(dirPrefix: string): { redis: () => RedisProcess; dir: string } {
  const redis = useRedis({ args: ['--save', '900 1'] });
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  afterAll(async () => {
    await closeAdmins();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const admin = await adminClient(redis());
    await admin.flushall();
    await admin.config('SET', 'save', '900 1');
    await admin.set('live', 'before');
  });
  return { redis, dir };
}
