import { redisInsightExport } from '../../main/core/profiles/importTestKit';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test } from '../redisFixture';

/** RedisInsight's export: its first database on the test's own server (no password), the others never dialled. */
function redisInsightFile(server: { host: string; port: number }, suffix: string): string {
  const [first, ...rest] = redisInsightExport({ host: server.host, port: server.port }) as Array<Record<string, unknown>>;
  const local: Record<string, unknown> = { ...first, username: '', password: '', db: 0 };
  return JSON.stringify([local, ...rest].map((e) => ({ ...e, name: `${String(e.name)} ${suffix}` })));
}

test.describe('Connections import and tags', () => {
  test('imports a RedisInsight file: a preview first, then the profiles, one of which reaches the real server', async ({ page, redis }) => {
    // Two screenshots per theme on a shared 2-core box.
    test.setTimeout(90_000);
    const conns = new ConnectionsPage(page);
    await conns.open();
    const suffix = String(redis.port);
    const dialog = await conns.previewImport('RI_databases.json', redisInsightFile(redis, suffix));
    await expect(dialog.getByTestId('import-summary')).toContainText("RedisInsight's database export with 4 connections");
    const entries = dialog.getByTestId('import-entry');
    await expect(entries).toHaveCount(4);
    await expect(entries.nth(1)).toContainText('cluster, TLS');
    await expect(entries.nth(2)).toContainText('password, sentinel password');
    // Nothing is written by the preview.
    await expect(conns.row(`orders-cache ${suffix}`)).toHaveCount(0);
    // The web build here has no CACHEBOARD_SECRET_KEY: the passwords have nowhere safe to go, and the import says so.
    await expect(dialog.getByTestId('import-confirm')).toBeDisabled();
    await dialog.getByTestId('import-drop-secrets').check();
    await shootBothThemes(page, 'docs/connections-import.png', (path) => dialog.screenshot({ path }));

    await dialog.getByTestId('import-confirm').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('status')).toContainText('Imported 4 profiles');
    await expect(conns.row(`sessions cluster ${suffix}`)).toContainText('cluster');
    await expect(conns.row(`orders-cache ${suffix}`).getByTestId('profile-tag')).toHaveText('env:prod');
    const result = await conns.test(`orders-cache ${suffix}`);
    await expect(result).toContainText('Connected');
  });

  test('refuses a malformed file naming the entry and field, and imports nothing', async ({ page, redis }) => {
    test.setTimeout(60_000);
    const conns = new ConnectionsPage(page);
    await conns.open();
    const entries = JSON.parse(redisInsightFile(redis, `bad ${redis.port}`)) as Array<Record<string, unknown>>;
    entries[1] = { ...entries[1], port: 'seven thousand' };
    const dialog = await conns.previewImport('bad.json', JSON.stringify(entries));
    await expect(dialog.getByRole('alert')).toContainText('Entry 2 of 4');
    await expect(dialog.getByRole('alert')).toContainText('field port');
    await expect(dialog.getByTestId('import-confirm')).toHaveCount(0);
  });

  test('filters the list by tag once there are more than a handful of profiles', async ({ page, redis }) => {
    test.setTimeout(90_000);
    const conns = new ConnectionsPage(page);
    await conns.open();
    const blue = `blue-${redis.port}`;
    const green = `green-${redis.port}`;
    const file = Array.from({ length: 7 }, (_, i) => ({
      name: `tagged ${redis.port} ${i}`,
      host: '10.99.0.1',
      port: 7000 + i,
      connectionType: 'STANDALONE',
      tags: [{ key: i < 3 ? blue : green, value: '' }],
    }));
    const dialog = await conns.previewImport('tagged.json', JSON.stringify(file));
    await dialog.getByTestId('import-confirm').click();
    await expect(page.getByRole('status')).toContainText('Imported 7 profiles');

    await expect(conns.tagFilter(blue)).toContainText('3');
    await conns.tagFilter(blue).click();
    await expect(page.locator(`[data-testid="profile-row"][data-profile-name^="tagged ${redis.port} "]`)).toHaveCount(3);
    await expect(conns.row(`tagged ${redis.port} 5`)).toHaveCount(0);
    await shootBothThemes(page, 'docs/connections-tags.png', (path) => page.screenshot({ path }));
    await conns.tagFilter(undefined).click();
    await expect(page.locator(`[data-testid="profile-row"][data-profile-name^="tagged ${redis.port} "]`)).toHaveCount(7);
    // The header's switcher groups the same way: each profile once, under its tag.
    const switcher = page.locator('#profile-select');
    await expect(switcher.locator(`optgroup[label="${blue}"] option`)).toHaveCount(3);
    await expect(switcher.locator(`optgroup[label="${green}"] option`)).toHaveCount(4);
    await expect(switcher.locator('option', { hasText: `tagged ${redis.port} 5` })).toHaveCount(1);
  });
});
