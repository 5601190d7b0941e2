import { ConnectionsPage } from '../pages/ConnectionsPage';
import { expect, serverVersion, test } from '../redisFixture';

test.describe('Connections page', () => {
  test('adds a profile, tests it against the real server, then removes it', async ({ page, redis, admin }) => {
    const conns = new ConnectionsPage(page);
    const name = await conns.addServer('e2e', redis);
    await expect(conns.row(name)).toContainText(`${redis.host}:${redis.port}`);

    const result = await conns.test(name);
    await expect(result).toContainText(await serverVersion(admin));
    await expect(conns.row(name).getByTestId('state-badge')).toBeVisible();

    await conns.remove(name);
    await page.reload();
    await expect(conns.row(name)).toHaveCount(0);
  });

  test('names the field when the port is out of range', async ({ page }) => {
    const conns = new ConnectionsPage(page);
    await conns.open();
    await conns.startAdd();
    await conns.fill({ name: 'bad-port', host: '127.0.0.1', port: '70000' });
    await conns.save();
    await expect(conns.fieldError('port')).toContainText('port');
    await expect(conns.row('bad-port')).toHaveCount(0);
  });

  test('names the url field when the URL is malformed', async ({ page }) => {
    const conns = new ConnectionsPage(page);
    await conns.open();
    await conns.startAdd();
    await conns.fill({ name: 'bad-url', url: 'http://example' });
    await conns.save();
    await expect(conns.fieldError('url')).toContainText('redis://');
  });

  test('reports an unreachable server with its host and port', async ({ page, redis }) => {
    const conns = new ConnectionsPage(page);
    await conns.open();
    const port = redis.port;
    await redis.stop();
    const name = `gone-${port}`;
    await conns.add({ name, host: '127.0.0.1', port: String(port) });
    const result = await conns.test(name);
    await expect(result).toContainText(`127.0.0.1:${port}`, { timeout: 15_000 });
    await conns.remove(name);
  });

  test('saves a cluster profile from seeds, refusing DB 2 on the db field, and shows its topology', async ({ page }) => {
    const conns = new ConnectionsPage(page);
    await conns.open();
    await conns.startAdd();
    await conns.fill({ name: 'e2e-cluster', topology: 'cluster', host: '10.9.0.1', port: '7000', db: '2', seeds: '10.9.0.2:7001, 10.9.0.3:7002' });
    await conns.save();
    await expect(conns.fieldError('db')).toContainText('cluster mode');
    await conns.fill({ name: 'e2e-cluster', db: '0' });
    await conns.save();
    const row = conns.row('e2e-cluster');
    await expect(row).toContainText('cluster');
    await expect(row).toContainText('10.9.0.1:7000 (+2 seeds)');
    await conns.remove('e2e-cluster');
  });

  test('shows the embedded server as a read-only profile', async ({ page }) => {
    const conns = new ConnectionsPage(page);
    await conns.open();
    const row = conns.row('Local (embedded)');
    await expect(row).toBeVisible();
    await expect(row.getByRole('button', { name: 'Remove' })).toHaveCount(0);
  });
});
