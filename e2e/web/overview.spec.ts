import { execFileSync } from 'node:child_process';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { expect, serverVersion, test } from '../redisFixture';

test.describe('Overview page', () => {
  test('shows the embedded server that npm start launched', async ({ page }) => {
    // The embedded server is whatever redis-server is on PATH: ask the binary, don't assume.
    const banner = execFileSync('redis-server', ['--version'], { encoding: 'utf8' });
    const version = /v=(\S+)/.exec(banner)?.[1] ?? 'unknown';
    const overview = new MetricsPage(page);
    await overview.open('Local (embedded)');
    await expect(overview.stat('version')).toContainText(version);
    await expect(overview.stat('role')).toContainText('master');
  });

  test('refreshes live: keys written after the page opened appear without a reload', async ({ page, redis, admin }) => {
    const conns = new ConnectionsPage(page);
    const name = await conns.addServer('overview', redis);

    const overview = new MetricsPage(page);
    await overview.open(name);
    await expect(overview.stat('version')).toContainText(await serverVersion(admin));

    const n = 137 + (redis.port % 50);
    const pipe = admin.pipeline();
    for (let i = 0; i < n; i++) pipe.set(`k:${i}`, 'v');
    await pipe.exec();
    await admin.select(3);
    await admin.set('other-db', '1');

    const row = (db: number) => overview.keyspace().locator(`tr[data-db="${db}"] td`).first();
    await expect(row(0)).toHaveText(String(n));
    await expect(row(3)).toHaveText('1');
    await expect(overview.stat('clients')).not.toHaveText('');

    await conns.open();
    await conns.remove(name);
  });

  test('shows the error when the server goes away', async ({ page, redis }) => {
    const conns = new ConnectionsPage(page);
    const name = await conns.addServer('dies', redis);
    const overview = new MetricsPage(page);
    await overview.open(name);
    await expect(overview.stat('role')).toContainText('master');
    await redis.stop();
    await expect(page.getByRole('alert')).toContainText(String(redis.port), { timeout: 15_000 });
    await conns.open();
    await conns.remove(name);
  });
});
