import { Redis } from 'ioredis';
import { closeRedis } from './closeRedis';
import { ConnectError, connectReady } from './connectReady';
import { toRedisOptions } from './connectionOptions';
import { withVia, type Via } from './sshVia';
import { plainSpecAt } from './topology';
import type { ProfileSpec } from './types';

/**
 * ioredis reads a cluster's slot map on a copy of the seed's connection whose errors it drops, so a seed that
 * refused its certificate shows only as "no seed node answered". This tries the first seed alone, with the same
 * TLS options a node gets (through SSH: checked against the seed's own address), and returns its TLS refusal,
 * the thing to fix, or undefined (TLS off, no TLS problem there). Called on that generic failure only.
 */
export async function seedTlsRefusal(spec: ProfileSpec, connectTimeoutMs: number, through?: Via): Promise<ConnectError | undefined> {
  const seed = spec.topology?.kind === 'cluster' ? spec.topology.seeds[0] : undefined;
  if (!spec.tls.enabled || seed === undefined) return undefined;
  // A lease of its own unless one is given: the failed client's may be gone with it.
  return withVia(spec, through, async (via) => {
    const redis = new Redis(toRedisOptions({ ...plainSpecAt(spec, seed), db: 0 }, 'test', { connectTimeoutMs, connectionName: 'cacheboard:test', via }));
    redis.on('error', () => undefined);
    try {
      await connectReady(redis, connectTimeoutMs, { host: seed.host, port: seed.port, connectTimeoutMs });
      return undefined;
    } catch (err) {
      return err instanceof ConnectError && err.code === 'TLS' ? err : undefined;
    } finally {
      await closeRedis(redis);
    }
  });
}

/** The cluster's generic give-up (no seed answered), after which seedTlsRefusal may name the cause. */
export function isUnreachable(err: unknown): boolean {
  return err instanceof ConnectError && err.code === 'UNREACHABLE';
}
