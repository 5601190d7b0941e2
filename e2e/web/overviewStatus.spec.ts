import { Redis } from 'ioredis';
import { spawnRedisServer, type RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { replicaArgs, startReplicaSet, waitForReplication, type ReplicaSet } from '../../testing/replication';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { expect, test } from '../redisFixture';

const at = (p: RedisProcess) => `${p.host}:${p.port}`;

/**
 * Issue 29 item 12: a node that answers late is "slow", one that refuses or drops the
 * connection is "unreachable", one that comes back with a new run_id "restarted", on the
 * cards, in the alerts and in the history, each caused on a real server.
 */
test.describe('Overview: slow, unreachable and restarted told apart', () => {
  let set: ReplicaSet;
  let restarted: RedisProcess | undefined;

  test.beforeEach(async () => {
    set = await startReplicaSet({ replicas: 1, args: ['--enable-debug-command', 'yes'] });
  });
  test.afterEach(async () => {
    await restarted?.stop();
    await set?.stop();
  });

  test('DEBUG SLEEP is slow, a killed server unreachable, the same port again restarted', async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const { master } = set;
    const replica = set.replicas[0]!;
    const name = await new ConnectionsPage(page).addServer('status', master);
    const overview = new MetricsPage(page);
    await overview.open(name);
    for (const node of [master, replica]) await expect(overview.status(at(node))).toHaveText('up');
    await expect(page.getByTestId('alerts-nodes')).toHaveText('All 2 nodes up.');

    // Busy: the poll (1 s) gets no answer while the connection stays open.
    const side = new Redis({ host: replica.host, port: replica.port });
    try {
      const sleeping = side.call('DEBUG', 'SLEEP', '4');
      await expect(overview.status(at(replica))).toHaveText('slow', { timeout: 5_000 });
      await expect(overview.card(at(replica))).toHaveAttribute('data-status', 'slow');
      await expect(overview.activeAlert('node_slow', at(replica))).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('overview-slow.png'), fullPage: true });
      await sleeping;
    } finally {
      side.disconnect();
    }
    await expect(overview.status(at(replica))).toHaveText('up', { timeout: 5_000 });
    await expect(overview.resolvedAlert('node_slow', at(replica))).toHaveCount(1, { timeout: 5_000 });
    const ops = overview.chart('ops');
    await expect(ops).toHaveAttribute('data-gaps', /\bslow\b/);
    // Never called down: no red gap, no unreachable alert, raised or resolved.
    await expect(ops).not.toHaveAttribute('data-gaps', /\bdown\b/);
    await expect(page.getByTestId('overview-gaps')).toHaveText('amber: a node was slow to answer');
    await expect(page.locator('[data-kind="node_unreachable"]')).toHaveCount(0);

    // Gone: connection refused.
    replica.kill('SIGKILL');
    await expect(overview.status(at(replica))).toHaveText('unreachable', { timeout: 10_000 });
    await expect(overview.activeAlert('node_unreachable', at(replica))).toBeVisible();
    await expect(ops).toHaveAttribute('data-gaps', /\bdown\b/);
    await expect(page.getByTestId('overview-gaps')).toHaveText('red: a node was unreachable · amber: a node was slow to answer');

    // Back on the same port: a new run_id.
    restarted = await spawnRedisServer({ port: replica.port, args: [...replicaArgs(master), '--enable-debug-command', 'yes'] });
    await waitForReplication(master, [restarted]);
    await expect(overview.status(at(replica))).toHaveText('up', { timeout: 10_000 });
    await expect(overview.activeAlert('node_restarted', at(replica))).toBeVisible();
    await expect(overview.card(at(replica)).getByTestId('node-restarted')).toContainText('restarted');
    await expect(overview.card(at(master))).not.toHaveAttribute('data-restarted', 'true');
    await expect(ops).toHaveAttribute('data-restarts', '1');
    await page.screenshot({ path: testInfo.outputPath('overview-restarted.png'), fullPage: true });
  });
});
