import { join } from 'node:path';
import { addUser } from '../main/server/auth/users';
import { test } from './redisFixture';
import { startServe, type ServeProcess } from './serveProcess';

export interface E2eUser {
  name: string;
  password: string;
}

/** The two users of useServeWithRoles' server. */
export const OPS: E2eUser = { name: 'olga', password: 'e2e-roles-ops-5d1a' };
export const ANALYST: E2eUser = { name: 'ana', password: 'e2e-roles-ana-77c2' };

/**
 * A `cacheboard serve` with sign-in, one ops and one analyst user, for each test of the
 * describe block that calls this (at collection time). No REDIS_URL: its only profile is the
 * read-only embedded one, so a test adds the editable profile it means to use. `env` is added to
 * its environment (e.g. CACHEBOARD_SECRET_KEY, so that passwords typed in the UI can be stored).
 */
export function useServeWithRoles(env: Record<string, string> = {}): () => ServeProcess {
  let serve: ServeProcess | undefined;
  test.beforeEach(async () => {
    serve = await startServe(env, async (dir) => {
      await addUser(join(dir, 'users.json'), OPS.name, 'ops', OPS.password);
      await addUser(join(dir, 'users.json'), ANALYST.name, 'analyst', ANALYST.password);
    });
  });
  test.afterEach(async () => {
    // Unset when the test was skipped before its beforeEach (the electron project).
    await serve?.stop();
    serve = undefined;
  });
  return () => {
    if (serve === undefined) throw new Error('useServeWithRoles(): the server is only there inside tests');
    return serve;
  };
}
