import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Absolute path of the first executable `redis-server` on PATH, or null. */
export function findRedisServer(pathEnv: string | undefined = process.env['PATH']): string | null {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return null;
}
