import { MonitorPage } from '../pages/MonitorPage';
import { openRoute } from '../pages/openRoute';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

/**
 * The Cacheboard server goes away while pages are open: no page may keep showing its last
 * state as if it were live (the Overview kept "No active alerts. All nodes up." in green).
 */
test.describe('Live pages when the Cacheboard server is gone', () => {
  webOnly('the desktop app has no server to lose: its link is IPC');
  let serve: ServeProcess | undefined;

  test.afterEach(async () => {
    await serve?.stop();
  });

  test('the Overview and the Monitor say "not live" with as-of times; nothing stays green', async ({ page, context, redis, admin }, testInfo) => {
    serve = await startServe({ REDIS_URL: redis.url });
    const profile = `REDIS_URL (127.0.0.1:${redis.port})`;

    // The Monitor in one tab, watching the node…
    const monitorTab = await context.newPage();
    await openRoute(monitorTab, 'monitor', serve.url);
    await monitorTab.getByLabel('Profile').selectOption({ label: profile });
    const monitor = new MonitorPage(monitorTab);
    await monitor.start();
    await monitor.live();
    await admin.set('live:state', '1');
    await expect(monitor.rows(monitor.pane())).not.toHaveCount(0);

    // …the Overview in another, live and green.
    await openRoute(page, 'overview', serve.url);
    await page.getByLabel('Profile').selectOption({ label: profile });
    const alerts = page.getByTestId('alerts');
    await expect(alerts).toContainText('No active alerts.');
    await expect(page.locator('.ov-live')).toContainText('Live');

    const before = Date.now();
    await serve.stop();
    serve = undefined;

    // What the issue saw: the last state in green as if live. It must give way to "not live".
    await expect(alerts).not.toContainText('No active alerts.');
    for (const tab of [page, monitorTab]) {
      const banner = tab.getByTestId('connection-banner');
      await expect(banner).toContainText('Lost the connection to the Cacheboard server at');
      await expect(banner).toContainText(/as of \d\d:\d\d:\d\d/);
      expect(Number(await banner.getAttribute('data-lost-at'))).toBeGreaterThanOrEqual(before - 1_000);
    }

    // The Overview: its last state, marked not live and as of when, in place of the green bar.
    await expect(alerts).toHaveAttribute('data-stale', 'true');
    await expect(alerts).toContainText('Not live: lost the connection to the Cacheboard server at');
    await expect(alerts.getByTestId('as-of')).toHaveText(/^as of \d\d:\d\d:\d\d$/);
    await expect(page.getByTestId('overview-live')).toContainText(/Not live · as of \d\d:\d\d:\d\d/);
    const asOf = Number(await alerts.getByTestId('as-of').getAttribute('data-at'));
    expect(asOf).toBeLessThanOrEqual(Date.now());
    expect(asOf).toBeGreaterThan(before - 5_000);
    await page.screenshot({ path: testInfo.outputPath('overview-lost.png'), fullPage: true });

    // The Monitor: the pane is no longer live, and says what its lines are as of.
    await expect(monitor.pane()).toHaveAttribute('data-status', 'disconnected');
    await expect(monitor.pane().getByTestId('as-of')).toHaveText(/^as of \d\d:\d\d:\d\d$/);
    await expect(monitorTab.locator('main[data-stale="true"]')).toHaveCount(1);
    await monitorTab.screenshot({ path: testInfo.outputPath('monitor-lost.png'), fullPage: true });
  });
});
