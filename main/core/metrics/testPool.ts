import { profileRegistry, specFor } from '../../../testing/profiles';
import type { RedisProcess } from '../../../testing/redis';
import { Pool } from '../pool/pool';

/** A pool whose profile ids name test servers: `{ m: master, r: replica }`. */
export function poolFor(servers: Record<string, RedisProcess>, password?: string): Pool {
  const specs = Object.fromEntries(
    Object.entries(servers).map(([id, proc]) => [id, specFor(proc, password === undefined ? {} : { password })]),
  );
  return new Pool({ ...profileRegistry(specs) });
}
