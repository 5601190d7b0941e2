import { Redis } from 'ioredis';
import type { RedisProcess } from '../../../../testing/redis';
import type { NodeCall } from './loadCatalog';

const opened = new Set<Redis>();

/** An ioredis connection as `user` (the default user when absent), and its `call` as loadCatalog takes it. */
export async function nodeCallAs(proc: RedisProcess, user?: { name: string; password: string }): Promise<NodeCall> {
  const redis = new Redis({
    host: proc.host,
    port: proc.port,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    // The refused users may not run INFO, which the ready check asks.
    enableReadyCheck: false,
    ...(user === undefined ? {} : { username: user.name, password: user.password }),
  });
  await redis.connect();
  opened.add(redis);
  return (args) => redis.call(args[0] as string, ...args.slice(1));
}

export function closeNodeCalls(): void {
  for (const r of opened) r.disconnect();
  opened.clear();
}
