import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['app/**/*.test.ts', 'main/**/*.test.ts', 'renderer/**/*.test.ts', 'testing/**/*.test.ts'],
    // Integration tests spawn real redis-server processes; give them room.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // CLI tests run bin/cacheboard.js, which runs dist/main/: rebuilt here when a source changed.
    globalSetup: ['testing/buildMain.ts'],
  },
});
