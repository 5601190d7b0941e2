import type { Cluster, Redis } from 'ioredis';
import { isCluster } from './client';

/**
 * Close a client and wait until its sockets are gone. QUIT lets replies
 * already in flight arrive; Redis closes the connection after answering it (a
 * Cluster sends it to every node). A client that is not ready (connecting,
 * waiting to reconnect) is cut at once, which also clears ioredis' reconnect
 * timer. A server that does not answer QUIT within graceMs is cut too.
 */
export async function closeRedis(redis: Redis | Cluster, graceMs = 1_000): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    abandon(redis);
    return;
  }
  const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
  redis.quit().catch(() => abandon(redis));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([ended, late]);
  clearTimeout(timer);
  // A Redis client also once QUIT has ended it: only disconnect() reaches a sentinel-mode
  // client's connector, whose failover detector otherwise stays subscribed to every sentinel.
  // Re-read the status: it changed while we waited, which TypeScript's narrowing cannot see.
  if (!isCluster(redis) || (redis.status as string) !== 'end') abandon(redis);
}

/**
 * Drop a client now. disconnect() cancels a pending reconnect but only
 * half-closes the socket (FIN); a peer that never reads would keep it open,
 * so destroy the socket too (a Cluster's node clients are dropped by its disconnect()).
 */
export function abandon(redis: Redis | Cluster): void {
  redis.disconnect();
  // ioredis types `stream` as always present; it is unset before the first connect.
  if (!isCluster(redis)) (redis.stream as Redis['stream'] | undefined)?.destroy();
}
