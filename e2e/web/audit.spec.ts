import { join } from 'node:path';
import { addUser } from '../../main/server/auth/users';
import { AuditPage } from '../pages/AuditPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

const ANALYST_PASSWORD = 'e2e-analyst-pw-7d2c';

test.describe('Audit log page', () => {
  test('a BGSAVE run from the Overview is on the record, newest first, with its user and outcome', async ({ page, redis, shell }, testInfo) => {
    test.skip(shell === 'electron', "web build only: its user is the web build's `local`, and it opens a second tab");
    const conns = new ConnectionsPage(page);
    const name = await conns.addServer('audit', redis);
    const overview = new MetricsPage(page);
    await overview.open(name);
    await overview.runAction('bgsave');

    const audit = new AuditPage(page);
    await audit.open();
    // The web server's data dir is shared by the run: other specs' entries are there too.
    const target = `${redis.host}:${redis.port}`;
    // One row per run: the start is folded into its end, which says how long it took.
    const ok = audit.rows({ action: 'bgsave', target, outcome: 'ok' });
    await expect(ok).toHaveCount(1);
    await expect(audit.cell(ok, 'user')).toHaveText('local');
    await expect(audit.cell(ok, 'outcome')).toHaveText('ok');
    await expect(audit.cell(ok, 'took')).toHaveText(/^\d+\.\d+ s$/);
    // The file size as people write it, not a raw byte count.
    await expect(audit.cell(ok, 'detail')).toHaveText(/^status ok, \d+(\.\d+)? (B|KiB|MiB)$/);
    const mine = audit.rows({ target });
    await expect(mine).toHaveCount(1);

    await audit.filter(`bgsave ${redis.port}`);
    await expect(audit.rows()).toHaveCount(1);
    await audit.outcome('started');
    await expect(audit.rows()).toHaveCount(0);
    await audit.outcome('all');
    await page.screenshot({ path: testInfo.outputPath('audit-log.png'), fullPage: true });

    await audit.filter('no such entry anywhere');
    await expect(page.getByTestId('audit-empty')).toHaveText('No entry matches the filter.');

    // A BGSAVE run from another tab appears on Refresh, without reopening the page.
    await audit.filter('');
    const other = await page.context().newPage();
    const otherOverview = new MetricsPage(other);
    await otherOverview.open(name);
    await otherOverview.runAction('bgsave');
    await other.close();
    await expect(audit.rows({ target, outcome: 'ok' })).toHaveCount(1);
    // The other tab's page may show the first run's row before its own BGSAVE is done (the
    // record is the profile's): its entry is written when the fork ends, so Refresh until then.
    await expect
      .poll(
        async () => {
          await audit.refresh();
          return audit.rows({ target, outcome: 'ok' }).count();
        },
        { timeout: 30_000 },
      )
      .toBe(2);

    await conns.open();
    await conns.remove(name);
  });
});

test.describe('Audit log page for an analyst', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  let serve: ServeProcess;

  test.beforeEach(async ({ redis }) => {
    serve = await startServe({ REDIS_URL: redis.url }, (dir) => addUser(join(dir, 'users.json'), 'ana', 'analyst', ANALYST_PASSWORD));
  });
  test.afterEach(async () => {
    await serve.stop();
  });

  test('says the log is for ops only, before asking the server', async ({ page }, testInfo) => {
    await page.goto(serve.url);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('User name').fill('ana');
    await form.getByLabel('Password').fill(ANALYST_PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('session-badge')).toContainText('ana · analyst');

    await new AuditPage(page).open(serve.url);
    const notice = page.getByTestId('role-notice');
    await expect(notice).toContainText('For ops users');
    await expect(notice).toContainText('Needs the ops role; you are signed in as analyst.');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByTestId('audit-table')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('audit-analyst.png') });
  });
});
