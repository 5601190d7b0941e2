import { Redis } from 'ioredis';
import { BulkPage } from '../pages/BulkPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { TrialsPage } from '../pages/TrialsPage';
import { useReplicaSet } from '../replicaSet';
import { expect, test } from '../redisFixture';

const grouped = (n: number) => n.toLocaleString('en-US');

test.describe('Refusals said before Start', () => {
  const replicaSet = useReplicaSet(1);

  test('Bulk load: a replica is refused before any confirmation; on the master the confirmation names the keys it replaces', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const { master, replicas } = replicaSet();
    const replica = replicas[0]!;
    // Keys of its own on the master (replicated), a count nobody hard-codes.
    const held = 300 + (master.port % 97);
    const admin = new Redis({ host: master.host, port: master.port });
    try {
      const pipe = admin.pipeline();
      for (let i = 0; i < held; i++) pipe.set(`live:${i}`, 'v');
      await pipe.exec();
    } finally {
      admin.disconnect();
    }

    const conns = new ConnectionsPage(page);
    const replicaName = await conns.addServer('bulkreplica', replica);
    const masterName = await conns.addServer('bulkmaster', master);
    await new MetricsPage(page).open(replicaName);
    const bulk = new BulkPage(page);
    await bulk.open();
    await bulk.upload(`r-${master.port}.txt`, 'SET a 1\n');

    await expect(page.getByTestId('bulk-replica')).toContainText('answers as a replica', { timeout: 10_000 });
    await expect(page.getByTestId('bulk-confirm-db')).toHaveCount(0);
    await expect(page.getByTestId('bulk-start')).toBeDisabled();
    await expect(page.getByText('A replica takes no writes: pick the profile of its master.')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('bulk-replica.png'), fullPage: true });

    // The master: the confirmation says how many keys the swap replaces, and a flush deletes.
    await page.getByLabel('Profile').selectOption({ label: masterName });
    await expect(page.getByTestId('bulk-replica')).toHaveCount(0);
    await expect(page.getByTestId('bulk-target-keys')).toHaveText(grouped(held), { timeout: 10_000 });
    await expect(page.getByTestId('bulk-confirm-hint')).toContainText(
      `Replaces db0 on ${masterName}, which holds ${grouped(held)} keys: the loaded data takes their place.`,
    );
    await page.getByTestId('bulk-mode-flush').check();
    await expect(page.getByTestId('bulk-confirm-hint')).toContainText(
      `Flushes db0 on ${masterName}, which holds ${grouped(held)} keys: all of them are deleted first.`,
    );
    await page.getByTestId('bulk-confirm-db').fill('0');
    await expect(page.getByTestId('bulk-start')).toBeEnabled();
    await page.getByTestId('bulk-confirm-hint').screenshot({ path: testInfo.outputPath('bulk-confirm-keys.png') });
  });

  test('Pipeline trials: a replica is refused before Start, with no failed run', async ({ page }) => {
    const replica = replicaSet().replicas[0]!;
    const trials = new TrialsPage(page);
    await trials.openOn('trialreplica', replica);
    await expect(page.getByTestId('trials-start')).toBeDisabled({ timeout: 10_000 });
    await expect(page.getByText('A replica takes no writes: pick the profile of its master.')).toBeVisible();
    await expect(trials.state()).toHaveCount(0);
  });
});
