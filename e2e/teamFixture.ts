import { randomBytes } from 'node:crypto';
import { test as redisTest } from './redisFixture';
import { startServe, withUsers, type ServeProcess } from './serveProcess';

export interface Member {
  user: string;
  password: string;
}

/** A `cacheboard serve` of the test's own with sign-in on, and the two roles that sign in to it. */
export interface Team {
  serve: ServeProcess;
  ops: Member;
  analyst: Member;
}

/**
 * The redis fixture plus `team`: a web server with an ops user and an analyst, for specs that
 * compare what each role is given (web build only: the desktop user is always ops; `webOnly`).
 */
export const test = redisTest.extend<{ team: Team }>({
  // Playwright reads fixture dependencies from this destructuring; this fixture needs none.
  // eslint-disable-next-line no-empty-pattern
  team: async ({}, use) => {
    const ops = { user: 'olga', password: `e2e-ops-${randomBytes(6).toString('hex')}` };
    const analyst = { user: 'ana', password: `e2e-ana-${randomBytes(6).toString('hex')}` };
    const serve = await startServe(
      {},
      withUsers([
        [ops.user, 'ops', ops.password],
        [analyst.user, 'analyst', analyst.password],
      ]),
    );
    await use({ serve, ops, analyst });
    await serve.stop();
  },
});
