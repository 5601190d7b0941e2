import { runCli } from '../../testing/cli';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

const PASSWORD = 'e2e-first-user-pw-82d0';

/** A `cacheboard serve` with no users: open on loopback, as `npm start` runs it, until a user is added beside it. */
test.describe('A server without users locks when the first one is added', () => {
  webOnly('sign-in; the desktop app has none');
  let serve: ServeProcess;

  test.beforeEach(async ({ redis }) => {
    serve = await startServe({ REDIS_URL: redis.url });
  });

  test.afterEach(async () => {
    await serve.stop();
  });

  test('the open page turns into the sign-in form at once, and the new user signs in', async ({ page }) => {
    await page.goto(serve.url);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Sign in' })).toHaveCount(0);

    const cli = await runCli(['user', 'add', 'first', '--role', 'ops', '--password-stdin'], (child) => child.stdin.end(`${PASSWORD}\n`), {
      CACHEBOARD_DATA_DIR: serve.dataDir,
      CACHEBOARD_USERS: '',
    });
    expect(cli.code, cli.err).toBe(0);
    // No reload, no click: the server closes the page's socket (4401) and the page asks who is there.
    const form = page.getByRole('form', { name: 'Sign in' });
    await expect(form).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    expect(serve.output()).toContain('sign-in is now required');

    await form.getByLabel('User name').fill('first');
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('session-badge')).toContainText('Signed in as first · ops');
  });
});
