import { Redis } from 'ioredis';
import { parseHostPort } from '../../app/hostPort';
import { startSentinelSet, type SentinelSet } from '../../testing/sentinel';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { KeysPage } from '../pages/KeysPage';
import { KeyValuePanel } from '../pages/KeyValuePanel';
import { expect, test } from '../redisFixture';

/** A client to the data node at "host:port" (closed by the caller). */
async function connect(address: string): Promise<Redis> {
  const at = parseHostPort(address, 6379);
  if ('error' in at) throw new Error(at.error);
  const client = new Redis({ host: at.host, port: at.port, lazyConnect: true, retryStrategy: () => null });
  await client.connect();
  return client;
}

test.describe('Keys page through Sentinel', () => {
  let set: SentinelSet;
  const clients: Redis[] = [];

  test.beforeEach(async () => {
    set = await startSentinelSet();
  });
  test.afterEach(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    // Unset when the test was skipped before its beforeEach (the electron project without a binary).
    await set?.stop();
  });

  test("counts the master's keys exactly, opens and edits a key on the master, and keeps working when a replica takes over", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const [first, ...others] = set.sentinelAddresses as [string, ...string[]];
    const [host, port] = first.split(':') as [string, string];
    const before = await set.currentMaster();
    const master = await connect(before);
    clients.push(master);
    // The master is stopped below: its client must not log reconnect errors then.
    master.on('error', () => {});
    // Counts that differ from run to run (the ports do): nothing the page shows can be a constant.
    const users = 150 + (Number(port) % 40);
    const orders = 60 + (Number(port) % 25);
    const p = master.pipeline();
    for (let i = 0; i < users; i++) p.set(`user:${i}`, `name-${i}`);
    for (let i = 0; i < orders; i++) p.hset(`order:${i}`, 'total', String(i));
    await p.exec();
    // Both replicas hold every key before any failover, so the new master has them too.
    expect(await master.wait(set.replicas.length, 10_000)).toBe(set.replicas.length);

    const conns = new ConnectionsPage(page);
    await conns.open();
    const name = `keys-sentinel-${port}`;
    await conns.add({ name, topology: 'sentinel', host, port, sentinels: others.join(', '), masterName: set.masterName });
    const keys = new KeysPage(page);
    await keys.open('', name);
    await keys.waitForCompleteTree();
    await expect(keys.indexLine()).toContainText(`${(users + orders).toLocaleString('en-US')} keys`);
    await expect(keys.folderCount('user:')).toHaveText(users.toLocaleString('en-US'));
    await expect(keys.folderCount('order:')).toHaveText(orders.toLocaleString('en-US'));

    // A key opened from its folder, and edited: the write lands on the master.
    await keys.openFolder('order:');
    expect(await keys.listedCount()).toBe(orders);
    const order = `order:${orders - 1}`;
    await keys.openExact(order);
    await keys.expectOpen(order);
    const panel = new KeyValuePanel(page);
    await expect(panel.meta('type')).toHaveText('hash');
    await expect(panel.row('total')).toContainText(String(orders - 1));
    await panel.row('total').getByRole('button', { name: 'Edit' }).click();
    await panel.fill('kv-hash-value', 'paid');
    await panel.click('kv-hash-save');
    await expect.poll(() => master.hget(order, 'total')).toBe('paid');
    await keys.screenshot(testInfo.outputPath('keys-sentinel.png'));

    // The master dies: the sentinels promote a replica, and the page must follow them to it
    // (the old master is gone, so whatever the page reads or writes from here is the new one's).
    await set.master.stop();
    await expect.poll(() => set.currentMaster(), { timeout: 30_000 }).not.toBe(before);
    const after = await set.currentMaster();
    expect(set.replicas.map((r) => `${r.host}:${r.port}`)).toContain(after);
    const promoted = await connect(after);
    clients.push(promoted);
    await expect.poll(async () => /role:master/.test(await promoted.info('replication')), { timeout: 20_000 }).toBe(true);
    // Keys written after the failover: a rescan counts them with the rest.
    const added = 20 + (Number(port) % 15);
    const q = promoted.pipeline();
    for (let i = 0; i < added; i++) q.set(`after:${i}`, 'x');
    await q.exec();

    await keys.refresh();
    await expect(keys.folderCount('after:')).toHaveText(added.toLocaleString('en-US'), { timeout: 30_000 });
    await keys.waitForCompleteTree();
    await expect(keys.indexLine()).toContainText(`${(users + orders + added).toLocaleString('en-US')} keys`);
    // (order: is open, so user: sits below its keys, out of the virtual tree's view.)
    await expect(keys.folderCount('order:')).toHaveText(orders.toLocaleString('en-US'));

    // An edit after the failover lands on the new master.
    await keys.openExact('user:0');
    await keys.expectOpen('user:0');
    await expect(panel.text()).toHaveText('name-0');
    await panel.click('kv-string-edit');
    await panel.fill('kv-string-value', 'after-failover');
    await panel.click('kv-string-save');
    await expect.poll(() => promoted.get('user:0'), { timeout: 15_000 }).toBe('after-failover');
    await expect(panel.meta('length')).toHaveText(String('after-failover'.length));
    await keys.screenshot(testInfo.outputPath('keys-sentinel-failover.png'));
  });
});
