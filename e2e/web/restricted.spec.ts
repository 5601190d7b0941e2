import { Redis } from 'ioredis';
import type { Page, TestInfo } from '@playwright/test';
import { spawnRedisServer, type RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { renamedAway } from '../../testing/restricted';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { openRoute } from '../pages/openRoute';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test } from '../redisFixture';

/** The managed service's user: no @admin, no @dangerous (restrictedUserRules, without a password). */
const OPEN_USER = 'app-open';

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
  test.beforeAll(async () => {
    server = await spawnRedisServer(renamedAway());
    const admin = new Redis({ host: server.host, port: server.port });
    try {
      // No password: the web build stores one only with CACHEBOARD_SECRET_KEY set, and the rules are what is tested.
      await admin.call('ACL', 'SETUSER', OPEN_USER, 'reset', 'on', 'nopass', '~*', '&*', '+@all', '-@admin', '-@dangerous');
      await admin.set('user:1', 'a');
    } finally {
      admin.disconnect();
    }
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test('ElastiCache\'s disabled commands renamed away: every page opens with no error alert; Config names CONFIG', async ({ page }, testInfo) => {
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
    const conns = new ConnectionsPage(page);
    await conns.open();
    const name = `acl-${server.port}`;
    await conns.add({ name, url: `redis://${OPEN_USER}@127.0.0.1:${server.port}` });
    await new MetricsPage(page).open(name);
    const notice = page.getByTestId('restrictions');
    await expect(notice).toContainText('INFO is not available here: no figures for this node', { timeout: 10_000 });
    await expect(notice.locator('p')).toHaveCount(1);
    await expect(page.locator('.ov-card-figs')).not.toContainText(/\b0\b/);
    await walk(page, testInfo, 'acl');
  });
});
