import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { spawnRedisServer, type RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { addUser } from '../../main/server/auth/users';
import { AppShell } from '../pages/AppShell';
import { AuditPage } from '../pages/AuditPage';
import { BulkPage } from '../pages/BulkPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MonitorPage } from '../pages/MonitorPage';
import { PageWatch } from '../pages/PageWatch';
import { SamplingPage } from '../pages/SamplingPage';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=1</script>';
const JS = 'javascript:window.__pwned=1';
/** Right-to-left override: shown as the characters it is, not obeyed as markup. */
const BIDI = 'invoice\u202Efdp.exe';
const ZERO_WIDTH = 'zero\u200Bwidth';
const POLLUTE = '{"polluted":1}';
/** Not UTF-8: shown escaped, like redis-cli, wherever Cacheboard shows bytes. */
const BAD_UTF8 = Buffer.from([0x62, 0x61, 0x64, 0x3a, 0xff, 0xfe]);
const BAD_UTF8_TEXT = 'bad:\\xff\\xfe';
/** Every text payload; each must show as itself wherever it is shown. */
// Invisible and bidi characters are shown escaped (\u202e), so a key cannot read as another.
const BIDI_SHOWN = 'invoice\\u202efdp.exe';
const ZERO_WIDTH_SHOWN = 'zero\\u200bwidth';
const TEXTS = [IMG, SCRIPT, JS, BIDI_SHOWN, ZERO_WIDTH_SHOWN];
const OPS_USER = 'olga';
const OPS_PASSWORD = 'e2e-ops-pw-19f3';

/**
 * Keys, hash fields and values an attacker with write access to Redis could
 * leave behind: markup, script URLs, bidi and zero-width characters, bytes that
 * are not UTF-8, and names that pollute prototypes when used as object keys.
 * Written with every command logged to SLOWLOG, so the Overview shows them too.
 */
async function seedHostileData(admin: Redis): Promise<void> {
  await admin.config('SET', 'slowlog-log-slower-than', '0');
  await admin.set(IMG, SCRIPT);
  await admin.set(SCRIPT, JS);
  await admin.set(JS, IMG);
  await admin.set(BIDI, ZERO_WIDTH);
  await admin.set(ZERO_WIDTH, BIDI);
  await admin.set(BAD_UTF8, BAD_UTF8);
  await admin.set('constructor', POLLUTE);
  await admin.hset('__proto__', '__proto__', POLLUTE, 'constructor', '{"prototype":{"polluted":1}}', 'polluted', '1');
  await admin.hset(`hash:${IMG}`, SCRIPT, JS, '__proto__', POLLUTE);
  // Prefix trees built as nested objects would walk these into Object.prototype
  // (two keys each, so each is a listed prefix, not a lone key).
  for (const key of [
    '__proto__:polluted',
    '__proto__:constructor:polluted',
    '__proto__:constructor:prototype',
    'constructor:prototype:polluted',
    'constructor:prototype:x',
  ]) {
    await admin.set(key, POLLUTE);
  }
  await admin.set(`${IMG}:1`, SCRIPT);
  await admin.set(`${IMG}:2`, SCRIPT);
  await admin.set('javascript:void(window.__pwned=1)', JS);
  await admin.config('SET', 'slowlog-log-slower-than', '10000');
}

/** The same payloads as commands, once MONITOR is watching. */
async function hostileCommands(admin: Redis): Promise<void> {
  await admin.set(IMG, SCRIPT);
  await admin.get(JS);
  await admin.set(BIDI, ZERO_WIDTH);
  await admin.set(BAD_UTF8, BAD_UTF8);
  await admin.hset('__proto__', '__proto__', POLLUTE);
}

test.describe('Untrusted data on every page', () => {
  webOnly('signs in to its own `cacheboard serve` and watches its WebSocket');
  // The Redis password; it must never leave the Node side in any form.
  const canary = `cb-canary-${randomBytes(6).toString('hex')}`;
  let redis: RedisProcess;
  let admin: Redis;
  let serve: ServeProcess;

  test.beforeEach(async () => {
    redis = await spawnRedisServer({ password: canary });
    admin = new Redis({ host: redis.host, port: redis.port, password: canary, lazyConnect: true });
    await admin.connect();
    await seedHostileData(admin);
    serve = await startServe({ REDIS_URL: redis.url }, (dir) => addUser(join(dir, 'users.json'), OPS_USER, 'ops', OPS_PASSWORD));
  });
  test.afterEach(async () => {
    await serve.stop();
    admin.disconnect();
    await redis.stop();
  });

  test('shows it as text, runs none of it, breaks no CSP rule, pollutes no prototype, and never sends the Redis password', async ({ page }, testInfo) => {
    test.setTimeout(150_000);
    const watch = new PageWatch(page);
    await watch.install();
    const shell = new AppShell(page);
    await shell.signIn(serve.url, OPS_USER, OPS_PASSWORD);
    const address = `${redis.host}:${redis.port}`;
    const profileName = `REDIS_URL (${address})`;

    // Connections: a profile name is untrusted too (another ops user typed it).
    await shell.go('Connections');
    const conns = new ConnectionsPage(page);
    await expect(await conns.test(profileName)).toHaveAttribute('data-state', 'ok');
    await conns.add({ name: IMG, host: redis.host, port: String(redis.port) });
    await expect(conns.row(IMG)).toContainText(IMG);
    await shell.selectProfile(profileName);

    // Overview: SLOWLOG shows the seeded commands' arguments.
    await shell.go('Overview');
    const slowlog = page.getByTestId('slowlog');
    // An argument holding quotes is shown quoted, as redis-cli would.
    for (const text of [...TEXTS, JSON.stringify(POLLUTE), '__proto__']) await expect(slowlog).toContainText(text, { timeout: 15_000 });
    await expect(slowlog).toContainText(BAD_UTF8_TEXT);

    // Bulk load: a file named with markup, holding hostile commands, previewed and merged in.
    await shell.go('Bulk load');
    const bulk = new BulkPage(page);
    const fileName = `${IMG}.txt`;
    await bulk.upload(fileName, `SET "${JS}" "${SCRIPT}"\nHSET __proto__ polluted "{\\"polluted\\":1}"\nSET "${BIDI}" "${ZERO_WIDTH}"\n`);
    await expect(bulk.file(fileName)).toContainText(IMG);
    for (const text of [JS, SCRIPT, BIDI_SHOWN, ZERO_WIDTH_SHOWN]) await expect(bulk.preview()).toContainText(text);
    await page.getByRole('radio', { name: 'merge' }).check();
    await page.getByTestId('bulk-start').click();
    await expect(bulk.outcome()).toHaveText('ok', { timeout: 30_000 });

    // Sampling: a census lists every key by name, and the prefix tree splits them on ':'.
    await shell.go('Sampling');
    const sampling = new SamplingPage(page);
    await sampling.run('census', { scanCount: '10' });
    const top = sampling.topByMemory();
    for (const text of [...TEXTS, BAD_UTF8_TEXT, '__proto__', 'constructor']) await expect(top).toContainText(text);
    const prefixes = page.getByTestId('sampling-namespaces');
    for (const prefix of ['__proto__:', 'constructor:', `${IMG}:`, 'javascript:']) await expect(sampling.prefixRow(prefix)).toContainText(prefix);
    await sampling.openPrefix('__proto__:');
    await sampling.openPrefix('constructor:');
    await expect(prefixes).toContainText('__proto__:constructor:');
    await expect(prefixes).toContainText('constructor:prototype:');

    await shell.go('Pipeline trials');

    // Monitor: the same payloads as live command arguments.
    await shell.go('Monitor');
    const monitor = new MonitorPage(page);
    await expect(monitor.node(address)).toBeChecked();
    await monitor.start();
    await monitor.live(address);
    await hostileCommands(admin);
    const pane = monitor.pane(address);
    // MONITOR itself escapes every byte outside printable ASCII (and quotes), so bidi and
    // zero-width characters arrive, and show, as \xHH text.
    const monitorTexts = [IMG, SCRIPT, JS, 'invoice\\xe2\\x80\\xaefdp.exe', 'zero\\xe2\\x80\\x8bwidth', BAD_UTF8_TEXT, '__proto__ {\\"polluted\\":1}'];
    for (const text of monitorTexts) {
      await expect(monitor.rows(pane).filter({ hasText: text }).first()).toBeVisible();
    }
    await page.getByTestId('monitor-stop').click();

    // Audit log: the load's entry names the hostile file.
    await shell.go('Audit log');
    const audit = new AuditPage(page);
    await audit.refresh();
    await expect(audit.cell(audit.rows({ action: 'bulk.merge', outcome: 'ok' }), 'detail')).toContainText(IMG);
    await expect(audit.rows({ action: 'monitor' }).first()).toBeVisible();

    // Then every page once more, whatever the navigation holds by now, each with all the data in place.
    for (const label of await shell.pageLabels()) {
      await shell.go(label);
      await expect(page.locator('img, script:not([src]), iframe, object, embed')).toHaveCount(0);
      await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
    }
    await page.screenshot({ path: testInfo.outputPath('untrusted-audit.png'), fullPage: true });

    const seen = await watch.settle();
    expect(seen.pwned, 'a payload ran').toEqual([]);
    expect(seen.dialogs, 'a dialog opened').toEqual([]);
    expect(seen.cspViolations, 'CSP violations').toEqual([]);
    expect(await watch.prototypeState()).toEqual({ polluted: undefined, newKeys: [] });

    // The captures did capture: the data went through them, only the password did not.
    expect(seen.frames.some((f) => f.includes('onerror=window.__pwned'))).toBe(true);
    expect(seen.bodies.some((b) => b.includes('<div id="root">'))).toBe(true);
    const leaks = {
      frames: seen.frames.filter((f) => f.includes(canary)).length,
      bodies: seen.bodies.filter((b) => b.includes(canary)).length,
      html: (await page.content()).includes(canary),
      storage: (await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).includes(canary),
      serveOutput: serve.output().includes(canary),
    };
    expect(leaks).toEqual({ frames: 0, bodies: 0, html: false, storage: false, serveOutput: false });
  });
});
