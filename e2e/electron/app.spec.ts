import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { _electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { Bridge } from '../../app/bridge';
import { spawnRedisServer, type RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { findElectronBinary, HOW_TO_GET_ELECTRON, repoRoot } from '../../scripts/electron-binary.js';

// The desktop shell needs a real Electron executable; without one these tests are reported
// as skipped with the reason, never silently passed.
const electron = findElectronBinary();
const skipReason = `Electron binary not available: ${electron.reason ?? ''}; ${HOW_TO_GET_ELECTRON}`;
test.skip(electron.path === null, skipReason);
// The skip annotation carries the reason, but the list reporter does not print annotations.
if (electron.path === null) console.warn(`[electron] ${skipReason}`);

type BridgeWindow = Window & { bridge: Bridge };

let redis: RedisProcess | undefined;
let app: ElectronApplication | undefined;
let dataDir: string | undefined;
let page: Page;

test.beforeEach(async () => {
  if (electron.path === null) throw new Error('unreachable: the file is skipped without Electron');
  redis = await spawnRedisServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'cacheboard-electron-e2e-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  delete env.ELECTRON_RUN_AS_NODE; // would turn the binary into plain Node
  app = await _electron.launch({
    executablePath: electron.path,
    args: ['.'],
    cwd: repoRoot,
    env: { ...env, REDIS_URL: redis.url, CACHEBOARD_DATA_DIR: dataDir },
  });
  page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
});

test.afterEach(async () => {
  await app?.close();
  await redis?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  app = undefined;
  redis = undefined;
  dataDir = undefined;
});

test('the window shows the UI from app://cacheboard with its navigation', async () => {
  expect(page.url()).toMatch(/^app:\/\/cacheboard\//);
  const nav = page.getByRole('navigation');
  await expect(nav.getByText('Overview', { exact: true })).toBeVisible();
  await expect(nav.getByText('Connections', { exact: true })).toBeVisible();
});

test('the page gets invoke and subscribe only, and no Node', async () => {
  const exposed = await page.evaluate(() => ({
    bridgeKeys: Object.keys((window as unknown as BridgeWindow).bridge).sort(),
    require: typeof (globalThis as { require?: unknown }).require,
    process: typeof (globalThis as { process?: unknown }).process,
  }));
  expect(exposed).toEqual({ bridgeKeys: ['invoke', 'subscribe'], require: 'undefined', process: 'undefined' });
});

test('a call crosses the bridge, and a refused call keeps its error code', async () => {
  const health = await page.evaluate(() => (window as unknown as BridgeWindow).bridge.invoke('health', {}));
  expect(health.status).toBe('ok');

  const refused = await page.evaluate(async () => {
    const bridge = (window as unknown as BridgeWindow).bridge as unknown as {
      invoke(name: string, input: unknown): Promise<unknown>;
    };
    try {
      await bridge.invoke('no.such.call', {});
      return null;
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown };
      return { code: err.code, message: typeof err.message };
    }
  });
  expect(refused).toEqual({ code: 'UNKNOWN_CALL', message: 'string' });
});

test('the page cannot navigate away or open windows, and is served with the CSP', async () => {
  const csp = await page.evaluate(() => fetch('/index.html').then((r) => r.headers.get('content-security-policy')));
  expect(csp).toContain("script-src 'self'");

  const opened = await page.evaluate(() => window.open('https://example.com/') === null);
  expect(opened).toBe(true);

  await page.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toMatch(/^app:\/\/cacheboard\//);
  expect(app?.windows()).toHaveLength(1);
});

test('the session denies permission requests (camera, microphone)', async () => {
  const granted = await page.evaluate(async () => {
    try {
      const s = await navigator.mediaDevices.getUserMedia({ audio: true });
      s.getTracks().forEach((t) => t.stop());
      return true;
    } catch {
      return false;
    }
  });
  expect(granted).toBe(false);
});
