import { Redis } from 'ioredis';
import { ClientsPage } from '../pages/ClientsPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { useReplicaSet } from '../replicaSet';
import { expect, test } from '../redisFixture';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

/**
 * The replica's replication link is a client of its master (CLIENT LIST flag S): killing it
 * breaks replication and may cost a full sync, so the dialog says so and asks twice. Its
 * button has a name of its own, apart from the row's "Kill client N".
 */
test.describe('Killing a replication link', () => {
  const servers = useReplicaSet(1);

  test('warns that it breaks replication, needs an explicit extra consent, and names its button apart from the row', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const { master } = servers();
    const name = await new ConnectionsPage(page).addServer('link', master);
    const clients = new ClientsPage(page);
    await clients.open(name);
    await clients.pauseUpdates();

    const link = clients
      .rows()
      .filter({ has: page.locator('.cl-c-flags', { hasText: /^S$/ }) })
      .first();
    await expect(link).toBeVisible({ timeout: 15_000 });
    const id = await link.getAttribute('data-id');
    expect(id).not.toBeNull();
    await link.getByTestId('clients-kill').click();

    const dialog = page.getByTestId('clients-kill-dialog');
    await expect(dialog.getByTestId('clients-kill-replication')).toContainText('breaks replication');
    await expect(dialog.getByTestId('clients-kill-replication')).toContainText('full sync');
    const confirm = dialog.getByTestId('clients-kill-dialog-confirm');
    await expect(confirm).toHaveAccessibleName(`Confirm kill of client ${id}`);
    await expect(page.getByRole('button', { name: `Kill client ${id}`, exact: true, includeHidden: true })).toHaveCount(1);
    await expect(confirm).toBeDisabled();

    for (const size of SIZES) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: testInfo.outputPath(`kill-link-${size.width}-${scheme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: null });

    await dialog.getByTestId('clients-kill-understood').check();
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(page.getByTestId('clients-outcome')).toContainText(`Killed client ${id}`);

    // The master saw the link go: the replica came back with a new connection.
    const admin = new Redis({ host: master.host, port: master.port, lazyConnect: true });
    await admin.connect();
    try {
      await expect.poll(async () => String(await admin.client('LIST')).includes(`id=${id} `), { timeout: 10_000 }).toBe(false);
    } finally {
      admin.disconnect();
    }
  });

  test('an ordinary client is killed with one confirmation, as before', async ({ page }) => {
    const { master } = servers();
    const name = await new ConnectionsPage(page).addServer('plain', master);
    const other = new Redis({ host: master.host, port: master.port, connectionName: 'plain-victim' });
    try {
      const clients = new ClientsPage(page);
      await clients.open(name);
      await expect(clients.row('plain-victim')).toHaveCount(1, { timeout: 15_000 });
      await clients.row('plain-victim').getByTestId('clients-kill').click();
      const dialog = page.getByTestId('clients-kill-dialog');
      await expect(dialog.getByTestId('clients-kill-replication')).toHaveCount(0);
      await expect(dialog.getByTestId('clients-kill-dialog-confirm')).toBeEnabled();
    } finally {
      other.disconnect();
    }
  });
});
