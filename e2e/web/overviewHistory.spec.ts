import { startReplicaSet } from '../../testing/replication';
import { writeTraffic } from '../../testing/traffic';
import { AuditPage } from '../pages/AuditPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { openRoute } from '../pages/openRoute';
import { MetricsPage } from '../pages/MetricsPage';
import { expect, test, webOnly } from '../redisFixture';
import { startServe } from '../serveProcess';

/**
 * The Overview's history is recorded by `cacheboard serve` while it runs, not only while a page
 * watches: a page that opens later finds the minutes before it, and a gap says why it is one.
 */
test.describe('Overview history', () => {
  webOnly('recorded by cacheboard serve; the desktop app polls while its page is open');

  test('a page that opens later replays what was recorded before, and a gap names its cause', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const set = await startReplicaSet({ replicas: 1 });
    try {
      const name = await new ConnectionsPage(page).addServer('history', set.master);
      // Away from the Overview while the load runs and a replica dies.
      await new AuditPage(page).open();
      await writeTraffic(set.master, 5_000, 'hist:');
      await set.replicas[0]!.stop();
      await page.waitForTimeout(3_000);

      const opened = Date.now();
      const overview = new MetricsPage(page);
      await overview.open(name);
      const ops = page.getByTestId('chart-ops');
      await expect(ops).toHaveAttribute('data-first-at', /^\d+$/);
      // The chart starts seconds before the page opened: the server recorded them.
      expect(Number(await ops.getAttribute('data-first-at'))).toBeLessThan(opened - 5_000);
      // The replica's outage is a gap labelled as one; the stretch before it is not.
      await expect(ops).toHaveAttribute('data-gaps', /\bdown\b/);
      await expect(ops).not.toHaveAttribute('data-gaps', /unrecorded/);
      await expect(page.getByTestId('overview-gaps')).toHaveText('red: a node was unreachable');
      await page.getByTestId('chart-ops').screenshot({ path: testInfo.outputPath('history-down.png') });
    } finally {
      await set.stop();
    }
  });

  test('with recording limited to watched profiles, the stretch nobody watched is "not recorded", never "down"', async ({ page, redis }, testInfo) => {
    test.setTimeout(60_000);
    // Stop recording a profile as soon as nobody watches it.
    const serve = await startServe({ REDIS_URL: redis.url, CACHEBOARD_HISTORY_IDLE_MINUTES: '0' });
    try {
      const profile = `REDIS_URL (127.0.0.1:${redis.port})`;
      await openRoute(page, 'overview', serve.url);
      await page.getByLabel('Profile').selectOption({ label: profile });
      const ops = page.getByTestId('chart-ops');
      await expect(ops).toHaveAttribute('data-first-at', /^\d+$/, { timeout: 10_000 });
      await expect(page.getByTestId('overview-gaps')).toHaveText('no gaps');

      await openRoute(page, 'audit', serve.url);
      await writeTraffic(redis, 4_000, 'hist:');
      await openRoute(page, 'overview', serve.url);
      await page.getByLabel('Profile').selectOption({ label: profile });
      await expect(ops).toHaveAttribute('data-gaps', /unrecorded/);
      await expect(ops).not.toHaveAttribute('data-gaps', /\bdown\b/);
      await expect(page.getByTestId('overview-gaps')).toHaveText('grey: not recorded');
      await page.screenshot({ path: testInfo.outputPath('history-unrecorded.png'), fullPage: true });
    } finally {
      await serve.stop();
    }
  });
});
