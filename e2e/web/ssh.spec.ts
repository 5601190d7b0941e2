import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createNetns, startRedisIn, type Netns } from '../../testing/netns';
import { makeUserKey, startSshd, type Sshd, type UserKey } from '../../testing/sshd';
import { receivedFrames } from '../pages/ConfigPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

const PASSPHRASE = 'Pw-e2e-ssh-key-pass-5d2b';
/** Inside the bastion's namespace only; the host's own 127.0.0.1 has nothing here (checked). */
const REDIS_PORT = 6421;
/** Keys written behind the bastion: the Overview counting them proves the page read that server. */
const KEYS = 37;

/** Whether something on the host's own loopback answers at `port`. */
function hostListens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** The SSH section of the open form, as a user fills it: key login with its passphrase. */
async function fillSsh(page: Page, sshd: Sshd, key: UserKey, knownHosts: string): Promise<void> {
  const ssh = page.getByTestId('ssh');
  await ssh.getByLabel('Through SSH').check();
  await ssh.getByLabel('SSH host', { exact: true }).fill(sshd.host);
  await ssh.getByLabel('SSH port', { exact: true }).fill(String(sshd.port));
  await ssh.getByLabel('SSH user', { exact: true }).fill('root');
  await ssh.getByLabel('Log in with').selectOption('key');
  await ssh.getByLabel('Key file', { exact: true }).fill(key.privateFile);
  await ssh.getByLabel('Key passphrase', { exact: true }).fill(PASSPHRASE);
  await ssh.getByLabel('known_hosts', { exact: true }).fill(knownHosts);
}

/** The viewport in both themes, pointer out of the way; kept under test-results, not docs/. */
async function shoot(page: Page, path: string): Promise<void> {
  await page.mouse.move(0, 0);
  await shootBothThemes(page, path, (p) => page.screenshot({ path: p }));
}

test.describe('A profile through an SSH bastion', () => {
  // A serve of its own with a secret key: the suite's server stores no typed secret (the key's passphrase).
  webOnly('the page runs on a serve started for the test, with CACHEBOARD_SECRET_KEY');
  let serve: ServeProcess | undefined;
  let ns: Netns | undefined;
  let sshd: Sshd | undefined;
  let redis: { stop(): void } | undefined;
  let dir = '';
  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cb-e2e-ssh-'));
    ns = createNetns();
    redis = await startRedisIn(ns, ['127.0.0.1'], REDIS_PORT);
    const args = ['-p', String(REDIS_PORT), 'MSET', ...Array.from({ length: KEYS }, (_, i) => [`behind:${i}`, 'v']).flat()];
    ns.run('redis-cli', args);
    serve = await startServe({ CACHEBOARD_SECRET_KEY: 'e2e-ssh-secret-key-0123456789abcdef' });
  });
  test.afterAll(async () => {
    await serve?.stop();
    sshd?.stop();
    redis?.stop();
    ns?.destroy();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  test('shows the unknown host key after Test, pins it on Accept, connects, and no secret reaches the page', async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const key = makeUserKey(dir, 'id_locked', PASSPHRASE);
    sshd = await startSshd({ netns: ns!, authorizedKeys: [key.publicLine] });
    // An empty known_hosts: the key is unknown, as on a first use.
    const knownHosts = join(dir, 'known_hosts');
    writeFileSync(knownHosts, '');
    expect(await hostListens(REDIS_PORT)).toBe(false);

    const frames = receivedFrames(page);
    const conns = new ConnectionsPage(page);
    await page.goto(`${serve!.url}/#/connections`);
    await expect(page.getByRole('heading', { name: 'Connections' })).toBeVisible();
    await conns.startAdd();
    const name = 'behind-bastion';
    await conns.fill({ name, host: '127.0.0.1', port: String(REDIS_PORT) });
    await fillSsh(page, sshd, key, knownHosts);

    // Test: refused for the unknown key, which is shown with its SHA256 fingerprint.
    const form = page.getByRole('form', { name: 'Add connection' });
    await form.getByRole('button', { name: 'Test', exact: true }).click();
    const hostKey = page.getByTestId('ssh-host-key');
    await expect(hostKey).toContainText(`Unknown host key of ${sshd.host}:${sshd.port}`, { timeout: 20_000 });
    await expect(hostKey).toContainText(sshd.fingerprint);
    expect(sshd.fingerprint).toMatch(/^SHA256:/);
    await hostKey.scrollIntoViewIfNeeded();
    await shoot(page, testInfo.outputPath('ssh-unknown-key.png'));

    // Accept and pin: the fingerprint goes into the pin field, and Test now reaches the server.
    await hostKey.getByRole('button', { name: 'Accept and pin' }).click();
    await expect(page.getByTestId('ssh').getByLabel('Pinned host key', { exact: true })).toHaveValue(sshd.fingerprint);
    await form.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(form.getByTestId('test-result')).toContainText(/Connected.*Redis \d+\.\d+\.\d+/, { timeout: 20_000 });
    await expect(page.getByTestId('ssh-host-key')).toHaveCount(0);
    await conns.save();
    await expect(conns.row(name)).toBeVisible();

    // Saved and reopened, the profile connects through the bastion: the Overview counts the keys behind it.
    const overview = new MetricsPage(page);
    await page.goto(`${serve!.url}/#/overview`);
    await page.getByLabel('Profile').selectOption({ label: name });
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await expect(overview.stat('role')).toContainText('master', { timeout: 20_000 });
    await expect(overview.keyspace().locator('tr[data-db="0"] td').first()).toHaveText(String(KEYS));
    await shoot(page, testInfo.outputPath('ssh-overview.png'));

    // The passphrase went to the server once, typed; nothing the server sent back holds it.
    expect(frames.length).toBeGreaterThan(3);
    expect(frames.filter((f) => f.includes(PASSPHRASE))).toEqual([]);
    expect(await page.locator('body').innerText()).not.toContain(PASSPHRASE);
  });
});
