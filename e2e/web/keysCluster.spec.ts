import { Cluster } from 'ioredis';
import { startCluster, type TestCluster } from '../../testing/cluster';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { KeysPage } from '../pages/KeysPage';
import { expect, test } from '../redisFixture';

test.describe('Keys page on a Redis Cluster', () => {
  let cluster: TestCluster;

  test.beforeEach(async () => {
    cluster = await startCluster();
  });
  test.afterEach(async () => {
    // Unset when the test was skipped before its beforeEach (the electron project without a binary).
    await cluster?.stop();
  });

  test('the tree counts the keys of every master; DB 0 only; a key opens by its exact name', async ({ page }) => {
    test.setTimeout(90_000);
    const [seed, ...others] = cluster.addresses as [string, ...string[]];
    const [host, port] = seed.split(':') as [string, string];
    // Keys spread over every slot range: the count must add up over all three masters.
    const users = 300 + (Number(port) % 50);
    const orders = 120 + (Number(port) % 30);
    const client = new Cluster([{ host, port: Number(port) }]);
    try {
      for (let i = 0; i < users; i++) await client.set(`user:${i}`, 'u');
      for (let i = 0; i < orders; i++) await client.hset(`order:${i}`, 'total', String(i));
    } finally {
      client.disconnect();
    }

    const conns = new ConnectionsPage(page);
    await conns.open();
    const name = `keys-cluster-${port}`;
    await conns.add({ name, topology: 'cluster', host, port, seeds: others.slice(0, 2).join(', ') });
    const keys = new KeysPage(page);
    await keys.open('', name);
    await keys.waitForCompleteTree();
    await expect(keys.folderCount('user:')).toHaveText(users.toLocaleString('en-US'));
    await expect(keys.folderCount('order:')).toHaveText(orders.toLocaleString('en-US'));
    await expect(page.getByTestId('keys-db')).toBeDisabled();

    await keys.openFolder('order:');
    expect(await keys.listedCount()).toBe(orders);
    // A single-key read routes by slot, whichever master holds it.
    await keys.openExact(`order:${orders - 1}`);
    await keys.expectOpen(`order:${orders - 1}`);
    await expect(page.getByTestId('keys-value')).toContainText('hash');
  });
});
