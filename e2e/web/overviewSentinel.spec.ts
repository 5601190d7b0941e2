import { startSentinelSet, type SentinelSet } from '../../testing/sentinel';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { expect, test } from '../redisFixture';

test.describe('Overview through Sentinel', () => {
  let set: SentinelSet;

  test.beforeEach(async () => {
    set = await startSentinelSet();
  });
  test.afterEach(async () => {
    // Unset when the test was skipped before its beforeEach (the electron project without a binary).
    await set?.stop();
  });

  test('lists master, replicas and sentinels, and a SENTINEL FAILOVER switches the profile with a banner', async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const [first, ...others] = set.sentinelAddresses as [string, ...string[]];
    const [host, port] = first.split(':') as [string, string];
    const conns = new ConnectionsPage(page);
    await conns.open();
    const name = `sentinel-${port}`;
    await conns.add({ name, topology: 'sentinel', host, port, sentinels: others.join(', '), masterName: set.masterName });

    const overview = new MetricsPage(page);
    await overview.open(name);
    const before = await set.currentMaster();
    await expect(overview.card(before)).toHaveAttribute('data-up', 'true', { timeout: 15_000 });
    await expect(page.getByTestId('sentinel')).toHaveCount(set.sentinels.length);

    const sentinel = await set.sentinelClient();
    try {
      await sentinel.call('SENTINEL', 'FAILOVER', set.masterName);
    } finally {
      sentinel.disconnect();
    }
    await expect.poll(() => set.currentMaster(), { timeout: 20_000 }).not.toBe(before);
    // The banner names the replica that took over and the master it replaced.
    const banner = page.getByTestId('failover-banner');
    const replicas = set.replicas.map((r) => `${r.host}:${r.port}`);
    await expect(banner).toContainText(`(was ${before})`, { timeout: 20_000 });
    const after = /master is now (\S+)/.exec((await banner.textContent()) ?? '')?.[1] ?? '';
    expect(replicas).toContain(after);
    await expect(page.getByTestId('failover-row').filter({ hasText: after }).first()).toBeVisible();
    await expect(overview.card(after)).toHaveAttribute('data-up', 'true');
    await page.screenshot({ path: testInfo.outputPath('overview-sentinel-failover.png'), fullPage: true });

    await conns.open();
    await conns.remove(name);
  });
});
