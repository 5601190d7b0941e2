import { existsSync, writeSync } from 'node:fs';

/**
 * TEST ONLY: the fault suites (main/cli/faults/, the key actions' crash tests) stop a job at
 * exact points that are too brief to hit by timing. With CACHEBOARD_TEST_PAUSE_AT=<point> in
 * its environment, a job that reaches <point> says `cacheboard-test-pause: <point>` on stderr
 * and then blocks its whole process (Atomics.wait: no timer, no I/O runs) for up to a minute,
 * for the test to kill -9 it there, or, once the file named by CACHEBOARD_TEST_PAUSE_RELEASE
 * exists, goes on (the test broke something meanwhile, e.g. killed its Redis). Unset (always,
 * outside those suites), it does nothing.
 *   verifying:    every command is loaded, verification has not begun;
 *   swapped:      SWAPDB went through, the old data is not yet flushed;
 *   export-saved: a key export's checkpoint holds part of its file.
 */
export type TestPausePoint = 'verifying' | 'swapped' | 'export-saved';

export const TEST_PAUSE_ENV = 'CACHEBOARD_TEST_PAUSE_AT';
export const TEST_PAUSE_RELEASE_ENV = 'CACHEBOARD_TEST_PAUSE_RELEASE';

/** Whether a test asked for a pause at `point`: a job may then make the point happen sooner. */
export function testPauseArmed(point: TestPausePoint): boolean {
  return process.env[TEST_PAUSE_ENV] === point;
}

export function testPause(point: TestPausePoint): void {
  if (process.env[TEST_PAUSE_ENV] !== point) return;
  writeSync(2, `cacheboard-test-pause: ${point}\n`);
  const release = process.env[TEST_PAUSE_RELEASE_ENV];
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    if (release !== undefined && existsSync(release)) return;
    Atomics.wait(cell, 0, 0, release === undefined ? 60_000 : 20);
  }
}
