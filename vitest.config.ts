import { defineConfig } from 'vitest/config';
import { splitTests } from './vitest.suites.js';

/**
 * Two projects over the same files, split by vitest.suites.ts (read it for the rule): `unit`
 * starts nothing and is the inner loop (`npm run test:unit`); `integration` spawns real
 * redis-servers and the CLI (`npm run test:integration`). `npx vitest run <file>` still runs a
 * file in whichever project holds it.
 */
const { unit, integration } = splitTests();

export default defineConfig({
  test: {
    // Real servers need room, and so do CPU-bound unit tests on a busy 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unit,
          // One worker runs many files with their modules loaded once: a third of the CPU time of a
          // fresh process per file, which is what keeps this under a minute on two cores. A unit
          // test therefore leaves no state behind (restore timers, env, and module-level settings).
          isolate: false,
          // Fails a test that starts a process, listens, or connects (see testing/unitGuard.ts).
          setupFiles: ['testing/unitGuard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integration,
          // CLI tests run bin/cacheboard.js, which runs dist/main/: rebuilt here when a source changed.
          globalSetup: ['testing/buildMain.ts'],
        },
      },
    ],
  },
});
