import { join } from 'node:path';
import { addUser } from '../../main/server/auth/users';
import { runCli } from '../../testing/cli';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

const PASSWORD = 'e2e-Canary-pw-41c9';

/** A second `cacheboard serve`, with a users file: sign-in is on. */
test.describe('Sign-in (web build with users)', () => {
  webOnly('sign-in; the desktop app has none');
  let serve: ServeProcess;
  let url = '';

  test.beforeEach(async ({ redis }) => {
    serve = await startServe({ REDIS_URL: redis.url }, (dir) => addUser(join(dir, 'users.json'), 'ana', 'analyst', PASSWORD));
    url = serve.url;
  });

  test.afterEach(async () => {
    await serve.stop();
  });

  test('asks to sign in, refuses a wrong password, signs in as an analyst and out again', async ({ page }, testInfo) => {
    await page.goto(url);
    const form = page.getByRole('form', { name: 'Sign in' });
    await expect(form).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

    await form.getByLabel('User name').fill('ana');
    await form.getByLabel('Password').fill('wrong');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Wrong user name or password.');
    await page.screenshot({ path: testInfo.outputPath('login.png') });

    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('session-badge')).toContainText('Signed in as ana · analyst');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('signed-in.png') });
    // The cookie is HttpOnly: the page's scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(serve.output()).not.toContain(PASSWORD);
    expect(await page.content()).not.toContain(PASSWORD);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  });

  test('removing the user with the CLI while they are signed in sends the page back to the sign-in form', async ({ page }) => {
    await page.goto(url);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('User name').fill('ana');
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('session-badge')).toContainText('Signed in as ana · analyst');

    const cli = await runCli(['user', 'remove', 'ana'], undefined, { CACHEBOARD_DATA_DIR: serve.dataDir, CACHEBOARD_USERS: '' });
    expect(cli.code, cli.err).toBe(0);
    // The server closes the page's WebSocket (4401) at once; no reload, no click.
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('session-badge')).toHaveCount(0);
  });
});
