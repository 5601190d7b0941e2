import { Redis } from 'ioredis';
import { startCluster, type TestCluster } from '../../testing/cluster';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test } from '../redisFixture';

test.describe('Overview of a Redis Cluster', () => {
  let cluster: TestCluster;

  test.beforeEach(async () => {
    cluster = await startCluster();
  });
  test.afterEach(async () => {
    // Unset when the test was skipped before its beforeEach (the electron project without a binary).
    await cluster?.stop();
  });

  test('shows every shard with its slots, and a manual failover as an event', async ({ page }) => {
    test.setTimeout(90_000);
    const [seed, ...others] = cluster.addresses as [string, ...string[]];
    const [host, port] = seed.split(':') as [string, string];
    const conns = new ConnectionsPage(page);
    await conns.open();
    const name = `cluster-${port}`;
    await conns.add({ name, topology: 'cluster', host, port, seeds: others.slice(0, 2).join(', ') });

    const overview = new MetricsPage(page);
    await overview.open(name);
    const panel = page.getByTestId('cluster-panel');
    await expect(panel.getByTestId('cluster-state')).toContainText('ok', { timeout: 15_000 });
    await expect(panel.getByTestId('cluster-slots')).toContainText('16384');
    await expect(panel.getByTestId('shard')).toHaveCount(3);
    // redis-cli --cluster create splits the slots about evenly: every shard serves some.
    await expect(panel.getByTestId('shard').filter({ hasText: 'no slots' })).toHaveCount(0);
    // Every node of the cluster has its card, up.
    for (const address of cluster.addresses) await expect(overview.card(address)).toHaveAttribute('data-up', 'true', { timeout: 15_000 });

    // A replica takes over its master's slots: both role changes are events.
    const replica = cluster.replicas[0]!;
    const admin = new Redis({ host: replica.host, port: replica.port, lazyConnect: true });
    await admin.connect();
    try {
      await admin.cluster('FAILOVER');
    } finally {
      admin.disconnect();
    }
    const failovers = page.getByTestId('failover-row');
    await expect(failovers.filter({ hasText: `${replica.host}:${replica.port}` }).first()).toBeVisible({ timeout: 20_000 });
    await expect(panel.getByTestId('cluster-state')).toContainText('ok');
    await page.waitForTimeout(3_000);
    await shootBothThemes(page, 'docs/overview-cluster.png', async (path) => {
      await page.screenshot({ path, fullPage: true });
    });

    await conns.open();
    await conns.remove(name);
  });
});
