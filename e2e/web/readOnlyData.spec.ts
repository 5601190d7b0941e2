import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addUser } from '../../main/server/auth/users';
import { AppShell } from '../pages/AppShell';
import { ConsolePage } from '../pages/ConsolePage';
import { KeysPage } from '../pages/KeysPage';
import { KeyValuePanel } from '../pages/KeyValuePanel';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS } from '../rolesServe';
import { startServe, type ServeProcess } from '../serveProcess';

/** The value panel's write controls. */
const WRITE_BUTTONS = ['kv-string-edit', 'kv-ttl-open', 'kv-rename-open', 'kv-delete-open'] as const;

/*
 * A hosted build defines its profiles in the server's config file (CACHEBOARD_CONFIG): "hosted"
 * as such a team does, "hosted-ro" marked `"readOnly": true`, both on the test's own server.
 */
test.describe('profiles from the config file', () => {
  webOnly('the config file is the web build’s');
  let serve: ServeProcess | undefined;
  let configDir = '';
  test.beforeEach(async ({ redis }) => {
    configDir = mkdtempSync(join(tmpdir(), 'cb-e2e-config-'));
    const configFile = join(configDir, 'cacheboard.json');
    const server = { host: redis.host, port: redis.port };
    writeFileSync(
      configFile,
      JSON.stringify({
        profiles: [
          { id: 'hosted', name: 'hosted', ...server },
          { id: 'hosted-ro', name: 'hosted-ro', ...server, readOnly: true },
        ],
      }),
    );
    serve = await startServe({ CACHEBOARD_CONFIG: configFile }, async (dir) => {
      await addUser(join(dir, 'users.json'), OPS.name, 'ops', OPS.password);
      await addUser(join(dir, 'users.json'), ANALYST.name, 'analyst', ANALYST.password);
    });
  });
  test.afterEach(async () => {
    await serve?.stop();
    serve = undefined;
    rmSync(configDir, { recursive: true, force: true });
  });

  test('ops edit keys on a config-file profile; one the file marks readOnly shows no edit control', async ({ page, admin }, testInfo) => {
    test.setTimeout(90_000);
    const url = (serve as ServeProcess).url;
    await admin.set('acct:1', 'v1');
    await new AppShell(page).signIn(url, OPS.name, OPS.password);
    const panel = new KeyValuePanel(page);
    await panel.useProfile('hosted');
    await panel.open('acct:1', url);
    await expect(new KeysPage(page).openColumn()).toHaveAttribute('data-can-edit', 'true');
    for (const id of WRITE_BUTTONS) await expect(panel.testId(id)).toBeVisible();
    await new KeysPage(page).screenshot(testInfo.outputPath('keys-config-profile.png'));

    await page.goto(`${url}/#/connections`);
    await panel.useProfile('hosted-ro');
    await panel.open('acct:1', url);
    await expect(new KeysPage(page).openColumn()).toHaveAttribute('data-can-edit', 'false');
    for (const id of WRITE_BUTTONS) await expect(panel.testId(id)).toHaveCount(0);

    // The Console says so and refuses a write there, naming the mark.
    const c = new ConsolePage(page);
    await c.open('hosted-ro', url);
    await expect(page.getByTestId('console-read-only-note')).toContainText('marked "readOnly" in the server\'s config file');
    const refused = await c.answer('SET acct:1 changed');
    await expect(refused.getByRole('alert')).toContainText('READ_ONLY');
    expect(await admin.get('acct:1')).toBe('v1');
  });

  test('an analyst runs INFO, CONFIG GET and CLIENT LIST in the console; CONFIG SET is refused, pointing at the Config page', async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const url = (serve as ServeProcess).url;
    await new AppShell(page).signIn(url, ANALYST.name, ANALYST.password);
    const c = new ConsolePage(page);
    await c.open('hosted', url);
    await expect(await c.answer('CONFIG GET maxmemory-policy')).toContainText('maxmemory-policy');
    await expect(await c.answer('CLIENT LIST')).toContainText('addr=');
    const refused = await c.answer('CONFIG SET maxmemory 1');
    await expect(refused).toHaveAttribute('data-status', 'failed');
    await expect(refused.getByRole('alert')).toContainText('the Config page shows every setting');
    // Last: its long reply would push the others out of the transcript's rendered window.
    await expect(await c.answer('INFO server')).toContainText('redis_version:');
    await c.screenshot(testInfo.outputPath('console-analyst-reads.png'));
  });
});
