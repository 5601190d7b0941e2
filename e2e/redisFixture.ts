import { Redis } from 'ioredis';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { serverIdentityOfText } from '../main/core/redis/serverIdentity';
import { test as appTest } from './appFixture';

/**
 * A real redis-server per test, plus an admin client to check what the UI shows; on
 * top of the app under test (appFixture: the web build or the desktop window).
 */
export const test = appTest.extend<{ redis: RedisProcess; admin: Redis }>({
  // Playwright reads fixture dependencies from this destructuring; this fixture needs none.
  // eslint-disable-next-line no-empty-pattern
  redis: async ({}, use) => {
    const proc = await spawnRedisServer();
    await use(proc);
    await proc.stop();
  },
  admin: async ({ redis }, use) => {
    const client = new Redis({ host: redis.host, port: redis.port, lazyConnect: true });
    // A test may kill or restart its server: the reconnect attempts' errors are expected, and a
    // command sent meanwhile still rejects, so they are not printed as unhandled.
    client.on('error', () => undefined);
    await client.connect();
    await use(client);
    client.disconnect();
  },
});

export { expect, webOnly } from './appFixture';

/** The server's own version string (Valkey's valkey_version, not its redis_version), read from INFO rather than assumed. */
export async function serverVersion(admin: Redis): Promise<string> {
  const { version } = serverIdentityOfText(await admin.info('server'));
  if (version === '') throw new Error('INFO server names no version');
  return version;
}
