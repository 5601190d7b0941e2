import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/chromium';

const PORT = Number(process.env.E2E_PORT ?? 7391);
const baseURL = `http://127.0.0.1:${PORT}`;
// A fresh data dir per run: no profile from an earlier run or from the user leaks in.
const dataDir = mkdtempSync(join(tmpdir(), 'cacheboard-e2e-'));

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 8_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: { baseURL, screenshot: 'only-on-failure', trace: 'retain-on-failure' },
  projects: [
    {
      name: 'web',
      testDir: 'e2e/web',
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
      },
    },
    // Runs where an Electron binary exists; otherwise each test reports itself skipped with the reason.
    { name: 'electron', testDir: 'e2e/electron' },
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
