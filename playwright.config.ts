import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { ShellOptions } from './e2e/appFixture';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/chromium';

const PORT = Number(process.env.E2E_PORT ?? 7391);
const baseURL = `http://127.0.0.1:${PORT}`;
// A fresh data dir per run: no profile from an earlier run or from the user leaks in.
const dataDir = mkdtempSync(join(tmpdir(), 'cacheboard-e2e-'));

// Playwright's own browser download cannot work here: Debian's Chromium, for both projects.
const chromium = {
  browserName: 'chromium' as const,
  viewport: { width: 1280, height: 800 },
  launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
};

export default defineConfig<object, ShellOptions>({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 8_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: { baseURL, screenshot: 'only-on-failure', trace: 'retain-on-failure' },
  // One suite, two shells: e2e/appFixture.ts gives every spec its `page`, from Chromium on
  // the web build or from the desktop app's window (then the Chromium is set up but unused).
  projects: [
    { name: 'web', testDir: 'e2e/web', use: { ...chromium, shell: 'web' } },
    // Runs where an Electron binary exists; otherwise each test reports itself skipped with the reason.
    // Specs of what only the web build has (sign-in, a second tab) skip themselves there, saying so.
    {
      name: 'electron',
      testDir: 'e2e',
      testMatch: ['web/**/*.spec.ts', 'electron/**/*.spec.ts'],
      use: { ...chromium, shell: 'electron' },
    },
  ],
  // The web build exactly as `npm start` runs it: no REDIS_URL, so it starts its own embedded redis-server.
  // The bin runs the compiled dist/main/ and refuses a stale one: bring it up to date first.
  webServer: {
    command: 'node scripts/build-main.js --if-stale && node bin/cacheboard.js serve',
    url: `${baseURL}/api/health`,
    env: { PORT: String(PORT), HOST: '127.0.0.1', CACHEBOARD_DATA_DIR: dataDir, REDIS_URL: '', CACHEBOARD_CONFIG: '' },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
  },
});
