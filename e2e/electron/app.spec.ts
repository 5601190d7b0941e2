import type { Bridge } from '../../app/bridge';
import { expect, test } from '../appFixture';

// The desktop shell itself; appFixture launches it for each test and gives its window as
// `page`, or reports every test skipped, with the reason, where no Electron binary exists.
test.skip(({ shell }) => shell !== 'electron', 'the desktop window only');

type BridgeWindow = Window & { bridge: Bridge };

test('the window shows the UI from app://cacheboard with its navigation', async ({ page }) => {
  expect(page.url()).toMatch(/^app:\/\/cacheboard\//);
  const nav = page.getByRole('navigation');
  await expect(nav.getByText('Overview', { exact: true })).toBeVisible();
  await expect(nav.getByText('Connections', { exact: true })).toBeVisible();
});

test('the page gets invoke and subscribe only, and no Node', async ({ page }) => {
  const exposed = await page.evaluate(() => ({
    bridgeKeys: Object.keys((window as unknown as BridgeWindow).bridge).sort(),
    require: typeof (globalThis as { require?: unknown }).require,
    process: typeof (globalThis as { process?: unknown }).process,
  }));
  expect(exposed).toEqual({ bridgeKeys: ['invoke', 'subscribe'], require: 'undefined', process: 'undefined' });
});

test('a call crosses the bridge, and a refused call keeps its error code', async ({ page }) => {
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

test('the page cannot navigate away or open windows, and is served with the CSP', async ({ page, electronApp }) => {
  const csp = await page.evaluate(() => fetch('/index.html').then((r) => r.headers.get('content-security-policy')));
  expect(csp).toContain("script-src 'self'");

  const opened = await page.evaluate(() => window.open('https://example.com/') === null);
  expect(opened).toBe(true);

  await page.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toMatch(/^app:\/\/cacheboard\//);
  expect(electronApp?.windows()).toHaveLength(1);
});

test('the session denies permission requests (camera, microphone)', async ({ page }) => {
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
