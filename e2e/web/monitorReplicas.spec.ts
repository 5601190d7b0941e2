import type { Locator } from '@playwright/test';
import { Redis } from 'ioredis';
import type { RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MonitorPage } from '../pages/MonitorPage';
import { useReplicaSet } from '../replicaSet';
import { expect, test } from '../redisFixture';

const at = (p: RedisProcess) => `${p.host}:${p.port}`;

interface Box {
  /** Text the element holds, whole. */
  text: string;
  /** Content wider than the box: cut, with or without an ellipsis. */
  clipped: boolean;
  /** The element lies inside the pane's box (nothing of it hidden past the pane's edge). */
  inside: boolean;
}

/** How an element of a pane is laid out: read from the boxes the browser computed, not from the CSS. */
async function boxOf(el: Locator, pane: Locator): Promise<Box> {
  const paneHandle = await pane.elementHandle();
  return el.evaluate((node, paneNode) => {
    const r = node.getBoundingClientRect();
    const p = (paneNode as Element).getBoundingClientRect();
    return {
      text: node.textContent ?? '',
      clipped: node.scrollWidth > node.clientWidth,
      inside: r.left >= p.left - 0.5 && r.right <= p.right + 0.5 && r.width > 0,
    };
  }, paneHandle);
}

async function expectReadable(el: Locator, pane: Locator, text: string | RegExp): Promise<void> {
  const box = await boxOf(el, pane);
  expect(box.text).toMatch(text);
  expect(box, `${box.text} is cut or outside its pane`).toEqual({ ...box, clipped: false, inside: true });
}

test.describe('Monitor of a master and two replicas', () => {
  const servers = useReplicaSet(2);

  test('at 1280 wide every pane shows its whole address, its badge and the arguments', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const { master, replicas } = servers();
    const nodes = [master, ...replicas];
    const name = await new ConnectionsPage(page).addServer('mon3', master);
    const monitor = new MonitorPage(page);
    await monitor.open(name);
    for (const n of nodes) await monitor.node(at(n)).check();
    await monitor.start();
    for (const n of nodes) await monitor.live(at(n));

    // A key and value of the length redis-benchmark and most caches write.
    const key = 'key:000000000042';
    const value = 'value-of-the-kind-a-cache-holds-0042';
    const writer = new Redis({ host: master.host, port: master.port });
    try {
      await writer.set(key, value);
    } finally {
      writer.disconnect();
    }
    for (const n of nodes) {
      const pane = monitor.pane(at(n));
      await expectReadable(pane.locator('.mon-pane-address'), pane, at(n));
      await expectReadable(pane.getByTestId('monitor-status'), pane, 'live');
      const row = monitor.rows(pane).filter({ hasText: key });
      await expect(row).toHaveCount(1);
      await expectReadable(row.locator('.mon-c-args'), pane, `${key} ${value}`);
    }
    await page.screenshot({ path: testInfo.outputPath('monitor-1280-three-nodes.png'), fullPage: true });
  });

  test('with the master down, every known node is listed and a replica can be watched', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const { master, replicas } = servers();
    const replica = replicas[0]!;
    const name = await new ConnectionsPage(page).addServer('mondown', master);
    const monitor = new MonitorPage(page);
    await monitor.open(name);
    for (const n of [master, ...replicas]) await expect(monitor.node(at(n))).toBeVisible();

    master.kill('SIGKILL');
    await expect.poll(() => master.exited()).toBe(true);
    // A page opened now: the nodes come from what the server knows of the profile, not from the dead master alone.
    await page.reload();
    await monitor.open(name);
    for (const n of [master, ...replicas]) await expect(monitor.node(at(n))).toBeVisible();
    await expect(page.locator(`[data-testid="monitor-node"][data-address="${at(master)}"]`)).toContainText('down');
    // The dead master is not what a Start would watch: a live node is picked.
    await expect(monitor.node(at(master))).not.toBeChecked();

    await monitor.node(at(replica)).check();
    await monitor.start();
    await monitor.live(at(replica));
    // A replica refuses writes; a read sent to it directly shows in its own MONITOR.
    const probe = `probe:${Date.now()}`;
    const reader = new Redis({ host: replica.host, port: replica.port });
    try {
      await reader.get(probe);
    } finally {
      reader.disconnect();
    }
    await expect(monitor.rows(monitor.pane(at(replica))).filter({ hasText: probe })).toHaveCount(1);
    await page.screenshot({ path: testInfo.outputPath('monitor-master-down.png'), fullPage: true });
  });
});
