import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { _electron, test as base, type ElectronApplication, type Page } from '@playwright/test';
import { findElectronBinary, HOW_TO_GET_ELECTRON, repoRoot } from '../scripts/electron-binary.js';

/**
 * Which shell the suite drives: the web build in Chromium (project "web") or the
 * desktop app's window (project "electron"). One suite, two projects: every spec
 * takes its `page` from here and never asks which.
 */
export type Shell = 'web' | 'electron';

export interface ShellOptions {
  shell: Shell;
}

interface AppFixtures {
  /** The desktop app behind `page` in the electron project; undefined on the web. */
  electronApp: ElectronApplication | undefined;
  /** Skips every test of the electron project where no Electron binary exists. */
  electronPresent: void;
}

interface WorkerFixtures {
  /** The Electron executable, or why there is none; looked up only by the electron project. */
  electronBinary: ReturnType<typeof findElectronBinary>;
}

/** The app each window belongs to, for page objects that drive the main process (file dialogs). */
const apps = new WeakMap<Page, ElectronApplication>();

export function electronAppOf(page: Page): ElectronApplication | undefined {
  return apps.get(page);
}

/** Launches the desktop app as `npm run desktop` does, on a fresh data dir, and waits for its window. */
async function launchDesktop(executablePath: string, dataDir: string): Promise<ElectronApplication> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  delete env.ELECTRON_RUN_AS_NODE; // would turn the binary into plain Node
  // `.` runs package.json's main, dist/main/electron.js. No REDIS_URL and no
  // CACHEBOARD_CONFIG: it starts its own embedded redis-server, as the web build under test does.
  return _electron.launch({
    executablePath,
    args: ['.'],
    cwd: repoRoot,
    env: { ...env, REDIS_URL: '', CACHEBOARD_CONFIG: '', CACHEBOARD_DATA_DIR: dataDir },
  });
}

export const test = base.extend<AppFixtures, ShellOptions & WorkerFixtures>({
  shell: ['web', { option: true, scope: 'worker' }],

  electronBinary: [
    async ({ shell }, use) => {
      const found = shell === 'electron' ? findElectronBinary() : { path: null, reason: 'not the electron project' };
      // The skip annotation carries the reason, but the list reporter does not print annotations.
      if (shell === 'electron' && found.path === null) console.warn(`[electron] ${skipReason(found.reason)}`);
      await use(found);
    },
    { scope: 'worker' },
  ],

  electronPresent: [
    async ({ shell, electronBinary }, use, testInfo) => {
      // Reported as skipped with the reason, never silently passed. Playwright sets this up
      // with the test's first beforeEach hook, so that hook never runs but afterEach hooks do:
      // they must tolerate what beforeEach never started.
      testInfo.skip(shell === 'electron' && electronBinary.path === null, skipReason(electronBinary.reason));
      await use();
    },
    { auto: true },
  ],

  electronApp: async ({ shell, electronBinary }, use) => {
    if (shell !== 'electron' || electronBinary.path === null) return use(undefined);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cacheboard-electron-e2e-'));
    try {
      const app = await launchDesktop(electronBinary.path, dataDir);
      try {
        await use(app);
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },

  // On the web, Playwright's own page, untouched. In the electron project, the app's
  // window: Playwright resolves fixtures by name, so its page (and a Chromium for it) is
  // set up there too, unused. A page object never needs to know which it got.
  page: async ({ electronApp, page }, use) => {
    if (electronApp === undefined) return use(page);
    const window = await electronApp.firstWindow();
    await window.waitForLoadState('domcontentloaded');
    apps.set(window, electronApp);
    await use(window);
  },
});

export { expect } from '@playwright/test';

function skipReason(reason: string | undefined): string {
  return `Electron binary not available: ${reason ?? ''}; ${HOW_TO_GET_ELECTRON}`;
}

/** Marks the tests of the current file or describe as the web build's only (sign-in, users, tabs). */
export function webOnly(why: string): void {
  test.skip(({ shell }) => shell === 'electron', `web build only: ${why}`);
}
