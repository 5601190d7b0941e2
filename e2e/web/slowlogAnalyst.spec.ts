import { join } from 'node:path';
import { addUser } from '../../main/server/auth/users';
import { AppShell } from '../pages/AppShell';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

const ANALYST_PASSWORD = 'e2e-analyst-pw-51f0';
const SECRET = 'tok-e2e-9c1d-SECRET';

test.describe('SLOWLOG on the Overview for an analyst', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  let serve: ServeProcess;

  test.beforeEach(async ({ redis, admin }) => {
    await admin.config('SET', 'slowlog-log-slower-than', '0');
    await admin.set('session:1', SECRET, 'EX', 600);
    await admin.config('SET', 'slowlog-log-slower-than', '10000');
    serve = await startServe({ REDIS_URL: redis.url }, (dir) => addUser(join(dir, 'users.json'), 'ana', 'analyst', ANALYST_PASSWORD));
  });
  test.afterEach(async () => {
    await serve.stop();
  });

  test('shows the command and key, says how many arguments are hidden, and never the value', async ({ page }, testInfo) => {
    await new AppShell(page).signIn(serve.url, 'ana', ANALYST_PASSWORD);
    await expect(page.getByTestId('session-badge')).toContainText('ana · analyst');

    await page.goto(`${serve.url}/#/overview`);
    const slowlog = page.getByTestId('slowlog');
    const row = slowlog.locator('tr', { hasText: 'session:1' });
    await expect(row).toContainText('set session:1', { timeout: 15_000 });
    await expect(row).toContainText('+3 args hidden');
    await expect(row.locator('td.ov-cmd')).toHaveAttribute('title', 'set session:1 +3 args hidden: values are shown to ops only');
    await expect(page.locator('body')).not.toContainText(SECRET);
    await slowlog.screenshot({ path: testInfo.outputPath('slowlog-analyst.png') });
  });
});
