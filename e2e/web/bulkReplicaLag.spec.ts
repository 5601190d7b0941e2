import { Redis } from 'ioredis';
import { startReplicaSet } from '../../testing/replication';
import { BulkPage } from '../pages/BulkPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test } from '../redisFixture';

test.describe('Bulk load page, with a replica', () => {
  test('shows the replica falling behind during the load, then caught up in the report', async ({ page }, testInfo) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const set = await startReplicaSet({ replicas: 1, args: ['--enable-debug-command', 'yes'] });
    const replica = set.replicas[0];
    if (replica === undefined) throw new Error('no replica');
    const sleeper = new Redis({ host: replica.host, port: replica.port, lazyConnect: true });
    try {
      const name = await new ConnectionsPage(page).addServer('lag', set.master);
      await new MetricsPage(page).open(name);
      const bulk = new BulkPage(page);
      await bulk.open();
      const rows = Array.from({ length: 100_000 }, (_, i) => `${i},value-${i}`);
      await bulk.upload(`lag-${set.master.port}.csv`, `id,v\n${rows.join('\n')}\n`);
      await bulk.mapString('lag:{id}', 'v');
      await page.getByText('Advanced').click();
      await page.getByLabel('Wait for replicas').fill('1');
      // The replica's event loop sleeps: it neither applies the stream nor acknowledges, so it falls behind.
      await sleeper.connect();
      const slept = sleeper.call('DEBUG', 'SLEEP', '12');
      await bulk.start(0);
      const lag = page.getByTestId('bulk-replica-lag');
      await expect(lag.locator(`li[data-addr$=":${replica.port}"]`)).toContainText(/[\d.]+ [KM]iB behind/, { timeout: 20_000 });
      await shootBothThemes(page, testInfo.outputPath('bulk-replica-lag.png'), (path) => page.screenshot({ path }));
      await slept;
      await expect(bulk.outcome()).toHaveText('ok', { timeout: 40_000 });
      const replicas = page.getByTestId('bulk-replicas');
      await expect(replicas).toContainText(`:${replica.port}`);
      await expect(replicas.locator('tbody tr').first()).toContainText(/iB · \d+ s.*yes/);
      await shootBothThemes(page, testInfo.outputPath('bulk-replica-report.png'), (path) => replicas.screenshot({ path }));
    } finally {
      sleeper.disconnect();
      await set.stop();
    }
  });
});
