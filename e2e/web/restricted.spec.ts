import { Redis } from 'ioredis';
import type { Page, TestInfo } from '@playwright/test';
import { spawnRedisServer, type RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { renamedAway } from '../../testing/restricted';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { openRoute } from '../pages/openRoute';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test } from '../redisFixture';

/** Every page a user opens with a profile selected (Connections and the audit log need none). */
const PAGES = ['overview', 'keys', 'console', 'bulk-load', 'sampling', 'audience-trials', 'pipeline-trials', 'monitor', 'pubsub', 'clients', 'config'];

/** Opens each page, lets it ask the server, and checks no error alert shows; a picture of each in both themes. */
async function walk(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const route of PAGES) {
    await openRoute(page, route);
    await expect(page.locator('main, .page').first()).toBeVisible();
    // Long enough for the page's first calls (and the Overview's first poll) to answer.
    await page.waitForTimeout(1_500);
    await expect(page.getByRole('alert'), `${name}: ${route}`).toHaveCount(0);
    await shootBothThemes(page, testInfo.outputPath(`${name}-${route}.png`), (path) => page.screenshot({ path, fullPage: true }));
  }
}

test.describe('A server with restricted commands', () => {
  let server: RedisProcess;
  let aclServer: RedisProcess;
  test.beforeAll(async () => {
    server = await spawnRedisServer(renamedAway());
    aclServer = await spawnRedisServer();
    for (const s of [server, aclServer]) {
      const admin = new Redis({ host: s.host, port: s.port });
      try {
        await admin.set('user:1', 'a');
        // The managed service's user (no @admin, no @dangerous) as the default one: the web build stores a
        // profile's password only with CACHEBOARD_SECRET_KEY set, and every connection of ours then has its rights.
        if (s === aclServer) await admin.call('ACL', 'SETUSER', 'default', 'reset', 'on', 'nopass', '~*', '&*', '+@all', '-@admin', '-@dangerous');
      } finally {
        admin.disconnect();
      }
    }
  });
  test.afterAll(async () => {
    await server.stop();
    await aclServer.stop();
  });

  test("ElastiCache's disabled commands renamed away: every page opens with no error alert; Config names CONFIG", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const conns = new ConnectionsPage(page);
    const name = await conns.addServer('renamed', server);
    await new MetricsPage(page).open(name);
    await expect(page.getByTestId('stat-memory')).not.toHaveText('—', { timeout: 10_000 });
    await walk(page, testInfo, 'renamed');
    await openRoute(page, 'config');
    await expect(page.getByText(/CONFIG/).first()).toBeVisible();
  });

  test('an ACL user without @admin and @dangerous: the Overview names INFO in one line, figures unknown, no error alert', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const name = await new ConnectionsPage(page).addServer('acl', aclServer);
    await new MetricsPage(page).open(name);
    // The page's own notice names INFO once; each panel then says what it leaves out without it
    // (the persistence actions, the slow log), in its own notice, once.
    const notice = page.locator('.ov-page > [data-testid="restrictions"] p[data-command="INFO"]');
    await expect(notice).toContainText('INFO is not available here: no figures for this node', { timeout: 10_000 });
    await expect(notice).toHaveCount(1);
    const persistence = page.getByTestId('persistence').locator('[data-testid="restrictions"] p[data-command="INFO"]');
    await expect(persistence).toContainText(/INFO is not available here: no (RDB snapshot|AOF rewrite) can be started/, { timeout: 10_000 });
    await expect(persistence).toHaveCount(1);
    await expect(page.locator('.ov-card-figs')).not.toContainText(/\b0\b/);
    await expect(page.locator('[data-testid="restrictions"] p[data-command="SLOWLOG GET"]')).toContainText('the slow log is not shown');
    await walk(page, testInfo, 'acl');
    await openRoute(page, 'clients');
    await expect(page.getByTestId('restrictions')).toContainText('CLIENT LIST is not available here');
    await expect(page.getByTestId('clients-node-count')).toHaveText('? clients');
    // Monitor without MONITOR: Start says which command is missing, as a line, not an error alert.
    await openRoute(page, 'monitor');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(
      page
        .getByText(/MONITOR/)
        .filter({ hasText: /not available|refused|NOPERM/ })
        .first(),
    ).toBeVisible({ timeout: 10_000 });
    await shootBothThemes(page, testInfo.outputPath('acl-monitor-started.png'), (path) => page.screenshot({ path, fullPage: true }));
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
