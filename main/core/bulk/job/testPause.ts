import { writeSync } from 'node:fs';

/**
 * TEST ONLY: the fault suite (main/cli/faults/) kills a load at exact points
 * that are too brief to hit by timing. With CACHEBOARD_TEST_PAUSE_AT=<point>
 * in its environment, a load that reaches <point> says
 * `cacheboard-test-pause: <point>` on stderr and then blocks its whole process
 * (Atomics.wait: no timer, no I/O runs) for up to a minute, for the test to
 * kill -9 it there. Unset (always, outside that suite), it does nothing.
 *   verifying: every command is loaded, verification has not begun;
 *   swapped:   SWAPDB went through, the old data is not yet flushed.
 */
export type TestPausePoint = 'verifying' | 'swapped';

export const TEST_PAUSE_ENV = 'CACHEBOARD_TEST_PAUSE_AT';

export function testPause(point: TestPausePoint): void {
  if (process.env[TEST_PAUSE_ENV] !== point) return;
  writeSync(2, `cacheboard-test-pause: ${point}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}
