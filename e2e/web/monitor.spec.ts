import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import type { RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { startReplicaSet, type ReplicaSet } from '../../testing/replication';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MonitorPage } from '../pages/MonitorPage';
import { expect, test } from '../redisFixture';

const at = (p: RedisProcess) => `${p.host}:${p.port}`;

/** redis-benchmark against one server, to its end. */
function benchmark(server: RedisProcess, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-benchmark', ['-h', server.host, '-p', String(server.port), '-q', ...args], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`redis-benchmark exited with ${code}`))));
  });
}

test.describe('Monitor page', () => {
  test('keeps up with a loaded node: bounded DOM, exact counters, untrusted keys as text', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(90_000);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const name = await new ConnectionsPage(page).addServer('monitor', redis);
    const monitor = new MonitorPage(page);
    await monitor.open(name);
    await expect(monitor.node(at(redis))).toBeChecked();
    await monitor.start();
    await monitor.live(at(redis));
    const pane = monitor.pane(at(redis));

    const load = benchmark(redis, ['-t', 'set,get', '-n', '100000', '-r', '1000', '-d', '16']);
    await expect(monitor.rows(pane).first()).toBeVisible();
    await expect.poll(() => monitor.value(pane, 'matched'), { timeout: 20_000 }).toBeGreaterThan(20_000);
    // Virtualized: the buffer holds thousands of lines, the DOM only what fits the viewport.
    expect(Number(await pane.getByTestId('monitor-list').getAttribute('data-rows'))).toBeGreaterThan(1000);
    expect(await monitor.rows(pane).count()).toBeLessThanOrEqual(40);
    await load;

    // Every SET and GET was matched; each was either delivered or dropped, as the server counted.
    await expect.poll(() => monitor.value(pane, 'matched'), { timeout: 10_000 }).toBeGreaterThanOrEqual(200_000);
    const [matched, delivered, dropped] = await Promise.all(
      (['matched', 'delivered', 'dropped'] as const).map((c) => monitor.value(pane, c)),
    );
    expect(delivered! + dropped!).toBe(matched);
    expect(await monitor.rows(pane).count()).toBeLessThanOrEqual(40);
    await expect(pane.getByTestId('monitor-top-commands').locator('tr[data-name="SET"]')).toBeVisible();
    await expect(page.getByTestId('monitor-rate-chart').locator('.recharts-line path').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('monitor.png'), fullPage: true });

    const hostile = '<img src=x onerror=alert(1)>';
    await admin.set(hostile, '<script>alert(2)</script>');
    await monitor.search('onerror');
    const row = monitor.rows(pane).filter({ hasText: hostile });
    await expect(row).toHaveCount(1);
    await expect(row.locator('.mon-c-args')).toContainText(`"${hostile}"`);
    await expect(row.locator('.mon-c-args')).toContainText('<script>alert(2)</script>');
    await expect(page.locator('img, script:not([src])')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('monitor-search.png'), fullPage: true });
    expect(dialogs).toEqual([]);
  });

  test('a key pattern limits what the node sends', async ({ page, redis, admin }) => {
    const name = await new ConnectionsPage(page).addServer('monglob', redis);
    const monitor = new MonitorPage(page);
    await monitor.open(name);
    await monitor.filter('keyGlob', 'keep:*');
    await monitor.start();
    await monitor.live(at(redis));
    const pane = monitor.pane(at(redis));
    await admin.set('keep:1', 'a');
    await admin.set('drop:1', 'b');
    await admin.hset('keep:2', 'f', 'v');
    await expect(monitor.rows(pane).filter({ hasText: 'keep:2' })).toHaveCount(1);
    await expect(monitor.rows(pane).filter({ hasText: 'keep:1' })).toHaveCount(1);
    await expect(monitor.rows(pane).filter({ hasText: 'drop:1' })).toHaveCount(0);
    await expect(monitor.counter(pane, 'matched')).toHaveAttribute('data-value', '2');

    // Changing the filter watches anew with it.
    await monitor.filter('keyGlob', 'drop:*');
    await page.getByTestId('monitor-apply').click();
    await expect(pane.getByTestId('monitor-mark').filter({ hasText: 'keys drop:*' })).toHaveCount(1);
    await monitor.live(at(redis));
    await admin.set('drop:2', 'c');
    await expect(monitor.rows(pane).filter({ hasText: 'drop:2' })).toHaveCount(1);
    await expect(monitor.counter(pane, 'matched')).toHaveAttribute('data-value', '1');
  });

  test.describe('master and replica side by side', () => {
    let set: ReplicaSet;
    test.beforeEach(async () => {
      set = await startReplicaSet({ replicas: 1 });
    });
    test.afterEach(async () => {
      // Unset when the test was skipped before its beforeEach (the electron project without a binary).
      await set?.stop();
    });

    test('a write on the master shows in both panes with the replication delay', async ({ page }, testInfo) => {
      const { master, replicas } = set;
      const replica = replicas[0]!;
      const name = await new ConnectionsPage(page).addServer('monrepl', master);
      const monitor = new MonitorPage(page);
      await monitor.open(name);
      await monitor.node(at(replica)).check();
      await monitor.start();
      await monitor.live(at(master));
      await monitor.live(at(replica));

      const writer = new Redis({ host: master.host, port: master.port });
      try {
        for (let i = 0; i < 5; i++) await writer.set(`repl:probe:${i}`, `v${i}`);
      } finally {
        writer.disconnect();
      }
      for (const node of [master, replica]) {
        await expect(monitor.rows(monitor.pane(at(node))).filter({ hasText: 'repl:probe:4' })).toHaveCount(1);
      }
      const delay = monitor.pane(at(replica)).getByTestId('monitor-delay');
      await expect(delay).toHaveAttribute('data-value', /^-?\d/);
      await expect(delay).toContainText('ms');
      // Once the first stats are in, the screenshot shows every panel filled.
      for (const node of [master, replica]) {
        await expect(monitor.counter(monitor.pane(at(node)), 'received')).not.toHaveAttribute('data-value', '');
      }
      await page.screenshot({ path: testInfo.outputPath('monitor-replicas.png'), fullPage: true });
    });
  });
});
