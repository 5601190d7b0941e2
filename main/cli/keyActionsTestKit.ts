import type { Cluster, Redis } from 'ioredis';

/** Tests only: `n` keys `prefix:i` (value "v", a TTL of `ttl` s when not 0) written by one script on the server: fast for 100k+. */
export async function fillKeys(admin: Redis, prefix: string, n: number, ttl = 0): Promise<void> {
  await admin.eval(`for i = 1, tonumber(ARGV[2]) do redis.call('SET', ARGV[1] .. ':' .. i, 'v') if ARGV[3] ~= '0' then redis.call('EXPIRE', ARGV[1] .. ':' .. i, ARGV[3]) end end`, 0, prefix, String(n), String(ttl));
}

/** Tests only: the keys matching `glob`, by SCAN. */
export async function countKeys(admin: Redis, glob: string): Promise<number> {
  let n = 0;
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', glob, 'COUNT', 1000);
    n += keys.length;
    cursor = next;
  } while (cursor !== '0');
  return n;
}

/** Tests only: `n` keys `prefix:i` (value "v") through a cluster client, `batch` commands in flight at a time. */
export async function fillClusterKeys(cluster: Cluster, prefix: string, n: number, batch = 5_000): Promise<void> {
  for (let from = 1; from <= n; from += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, n - from + 1) }, (_, i) => cluster.set(`${prefix}:${from + i}`, 'v')));
  }
}
