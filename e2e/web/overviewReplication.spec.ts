import { spawnRedisServer, type RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { replicaArgs, startReplicaSet, waitForReplication, type ReplicaSet } from '../../testing/replication';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { expect, test } from '../redisFixture';

const at = (p: RedisProcess) => `${p.host}:${p.port}`;

test.describe('Overview of a master with two replicas', () => {
  let set: ReplicaSet;
  let restarted: RedisProcess | undefined;

  test.beforeEach(async () => {
    set = await startReplicaSet({ replicas: 2 });
  });
  test.afterEach(async () => {
    await restarted?.stop();
    // Unset when the test was skipped before its beforeEach (the electron project without a binary).
    await set?.stop();
  });

  test('draws the topology and charts, alerts on a dead replica, and recovers', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const { master, replicas } = set;
    const [alive, victim] = replicas as [RedisProcess, RedisProcess];
    const conns = new ConnectionsPage(page);
    // The profile names the master only: the replicas are found through INFO replication.
    const name = await conns.addServer('replset', master);
    const overview = new MetricsPage(page);
    await overview.open(name);

    for (const node of [master, alive, victim]) {
      await expect(overview.card(at(node))).toHaveAttribute('data-up', 'true');
      await expect(overview.topologyNode(at(node))).toHaveAttribute('data-up', 'true');
    }
    await expect(overview.topologyNode(at(master))).toHaveAttribute('aria-label', /master/);
    await expect(overview.topologyNode(at(alive))).toHaveAttribute('aria-label', /replica/);
    // A chart has drawn once it has a line per node; the lag chart has one per replica.
    await expect(overview.chart('ops').locator('.recharts-line')).toHaveCount(3);
    await expect(overview.chart('lag').locator('.recharts-line')).toHaveCount(2);
    await page.screenshot({ path: testInfo.outputPath('overview-replicas.png'), fullPage: true });

    victim.kill('SIGKILL');
    await expect(overview.activeAlert('node_unreachable', at(victim))).toBeVisible({ timeout: 10_000 });
    await expect(overview.card(at(victim))).toHaveAttribute('data-up', 'false');
    await expect(overview.topologyNode(at(victim))).toHaveAttribute('data-up', 'false');
    await expect(overview.card(at(alive))).toHaveAttribute('data-up', 'true');
    await page.screenshot({ path: testInfo.outputPath('overview-replica-down.png'), fullPage: true });

    // Same port, same master: the poller finds it again without a reload.
    restarted = await spawnRedisServer({ port: victim.port, args: replicaArgs(master) });
    await waitForReplication(master, [alive, restarted]);
    await expect(overview.resolvedAlert('node_unreachable', at(victim))).toHaveCount(1, { timeout: 10_000 });
    await expect(overview.card(at(victim))).toHaveAttribute('data-up', 'true');

    await conns.open();
    await conns.remove(name);
  });
});
