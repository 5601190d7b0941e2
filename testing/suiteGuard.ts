/**
 * The unit suite runs without servers or processes so it stays a fast inner loop. Its setup
 * (`testing/unitGuard.ts`) sets this variable; the spawners here check it, so a unit test that
 * reaches one fails at once with the fix in the message instead of slowing the loop down.
 */
export const UNIT_SUITE_ENV = 'CACHEBOARD_UNIT_SUITE';

export const belongsInIntegration = (what: string): string =>
  `this test starts a server: it belongs in test:integration (it tried to ${what}). ` +
  'vitest.suites.ts files a test under integration when it imports, directly or not, a module that ' +
  'imports child_process or listens on a socket: import the spawner from testing/ so the rule sees it.';

/** Throws when called inside the unit suite. */
export function refuseInUnitSuite(what: string): void {
  if (process.env[UNIT_SUITE_ENV] === '1') throw new Error(belongsInIntegration(what));
}
