import { Cluster, Redis } from 'ioredis';
import { spawnRedisServer } from '../../main/core/redisProcess/spawnRedisServer';
import { startCluster, type TestCluster } from '../../testing/cluster';
import { AppShell } from '../pages/AppShell';
import { AuditPage } from '../pages/AuditPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { KeyActionsPanel } from '../pages/KeyActionsPanel';
import { KeysPage } from '../pages/KeysPage';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

/** A hostile name among the keys a dry run lists: it must show as these characters, never as an element. */
const HTML_KEY = 'price:eu:<img src=x onerror=alert(1)>';

interface Seeded {
  /** Keys under price:eu: (HTML_KEY among them): few enough that the dry run lists every name. */
  eu: string[];
  us: number;
  /** session: hashes with no TTL (more than the dry run's 20 names), and strings with a day's TTL. */
  sessionsNoTtl: number;
  sessionsTtl: number;
  total: number;
}

/** A known keyspace, its sizes varied by the server's port so no count is a constant the page could fake. */
async function seed(admin: Redis, n: number): Promise<Seeded> {
  const eu = [HTML_KEY, ...Array.from({ length: 11 + (n % 5) }, (_, i) => `price:eu:${i}`)];
  const us = 25 + (n % 7);
  const sessionsNoTtl = 30 + (n % 9);
  const sessionsTtl = 8 + (n % 4);
  const p = admin.pipeline();
  for (const k of eu) p.set(k, 'p');
  for (let i = 0; i < us; i++) p.set(`price:us:${i}`, 'p');
  for (let i = 0; i < sessionsNoTtl; i++) p.hset(`session:${i}`, { user: String(i) });
  for (let i = 0; i < sessionsTtl; i++) p.set(`session:t${i}`, 's', 'EX', 86_400);
  await p.exec();
  return { eu, us, sessionsNoTtl, sessionsTtl, total: eu.length + us + sessionsNoTtl + sessionsTtl };
}

/** Every key matching a glob, by SCAN (never KEYS), with its TTL in seconds (-1: none). */
async function scanTtls(admin: Redis, match: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    for (const k of keys) out.set(k, await admin.ttl(k));
  } while (cursor !== '0');
  return out;
}

const count = async (admin: Redis, match: string) => (await scanTtls(admin, match)).size;

test.describe('Keys page: bulk actions', () => {
  test.beforeEach(({ page }) => {
    page.on('dialog', (d) => {
      throw new Error(`a browser dialog opened: ${d.message()}`);
    });
  });

  test('from a folder of the tree: dry run, confirmation, progress, report; Redis and the audit log agree', async ({ page, redis, admin }, testInfo) => {
    const s = await seed(admin, redis.port);
    const keys = new KeysPage(page);
    await keys.openOn('ka-folder', redis);
    await keys.waitForCompleteTree();
    await keys.openFolder('price:');
    await keys.openFolder('price:eu:');

    const ka = new KeyActionsPanel(page);
    await ka.open('folder', 'delete');
    await expect(ka.pattern()).toHaveText('price:eu:*');
    await ka.dryRun();
    await expect(ka.dry('matched')).toHaveText(String(s.eu.length));
    // Fewer than 20 matched: every name is listed, as text (the hostile one too), and no element came of it.
    expect((await ka.samples().allInnerTexts()).sort()).toEqual([...s.eu].sort());
    await expect(ka.dialog().locator('img')).toHaveCount(0);
    // Every one of so few keys is measured: an exact figure, no interval.
    await expect(ka.dry('memory')).toHaveText(/^\d+(\.\d+)? (B|KiB)$/);
    await shootBothThemes(page, 'docs/keys-actions-dryrun.png', (path) => ka.screenshot(path));
    // The dry run changed nothing.
    expect(await count(admin, 'price:eu:*')).toBe(s.eu.length);

    // Not the whole DB: no DB to type back; the button says what it will do.
    await expect(ka.confirmDb()).toHaveCount(0);
    await expect(ka.runButton()).toHaveText(`Delete ${s.eu.length} keys`);
    await ka.screenshot(testInfo.outputPath('keys-actions-confirm.png'));
    await ka.run();
    await expect(ka.runStatus()).toBeVisible();
    await ka.waitForEnd('done');
    expect(await ka.runCount('matched')).toBe(s.eu.length);
    expect(await ka.runCount('acted')).toBe(s.eu.length);
    expect(await ka.runCount('skipped')).toBe(0);
    expect(await ka.runCount('errors')).toBe(0);
    await expect(ka.headline()).toHaveText(`${s.eu.length} keys deleted in ${await ka.runSeconds()}: ${s.eu.length} matched, 0 skipped, 0 errors.`);
    await shootBothThemes(page, 'docs/keys-actions-report.png', (path) => ka.screenshot(path));

    // Redis holds exactly what the report says: the folder gone, every other key there.
    expect(await count(admin, 'price:eu:*')).toBe(0);
    expect(await count(admin, 'price:us:*')).toBe(s.us);
    expect(await count(admin, 'session:*')).toBe(s.sessionsNoTtl + s.sessionsTtl);
    expect(await admin.dbsize()).toBe(s.total - s.eu.length);

    // Closing the report rebuilds the tree: the folder is gone from it.
    await ka.done();
    await keys.waitForCompleteTree();
    await expect(keys.folder('price:eu:')).toHaveCount(0);
    await expect(keys.folderCount('price:')).toHaveText(String(s.us));

    // The audit log names the run's profile and DB, pattern, action and counts (the web server's log holds other specs' entries too).
    const profileId = await keys.profileId();
    const audit = new AuditPage(page);
    await audit.open();
    const row = audit.rows({ action: 'keys.actions.delete', target: `profile ${profileId} db 0`, outcome: 'ok' });
    await expect(row).toHaveCount(1);
    await expect(audit.cell(row, 'detail')).toContainText('pattern "price:eu:*": delete');
    await expect(audit.cell(row, 'detail')).toContainText(`matched ${s.eu.length}, acted ${s.eu.length}, skipped 0, errors 0`);
    // One row per run: its start is folded into its end, which says how long it took.
    await expect(audit.cell(row, 'took')).toHaveText(/^\d+(\.\d+)? (ms|s)$/);
    await expect(audit.rows({ action: 'keys.actions.delete', target: `profile ${profileId} db 0`, outcome: 'started' })).toHaveCount(0);
  });

  test('from the filtered list: a TTL on the sessions that have none, 20 names shown, the others untouched', async ({ page, redis, admin }, testInfo) => {
    const s = await seed(admin, redis.port);
    const keys = new KeysPage(page);
    await keys.openOn('ka-list', redis);
    await keys.match('session:*');
    await keys.noTtl(true);
    expect(await keys.listedCount()).toBe(s.sessionsNoTtl);

    const ka = new KeyActionsPanel(page);
    await ka.open('list', 'expire');
    // The list's filter comes along.
    await expect(ka.dialog().getByTestId('ka-ttl')).toHaveValue('none');
    await ka.expireIn(600, { jitterPct: 10 });
    await ka.screenshot(testInfo.outputPath('keys-actions-expire.png'));
    await ka.dryRun();
    await expect(ka.dry('matched')).toHaveText(String(s.sessionsNoTtl));
    await expect(ka.samples()).toHaveCount(20);
    await ka.run();
    await ka.waitForEnd('done');
    expect(await ka.runCount('acted')).toBe(s.sessionsNoTtl);
    expect(await ka.runCount('errors')).toBe(0);

    // Each key that had none now expires within 600 s ± 10 %; the others keep their day.
    const ttls = [...(await scanTtls(admin, 'session:*')).values()];
    expect(ttls.filter((t) => t > 0 && t <= 660)).toHaveLength(s.sessionsNoTtl);
    expect(ttls.filter((t) => t > 660)).toHaveLength(s.sessionsTtl);
    expect(ttls.filter((t) => t < 0)).toHaveLength(0);
    await ka.done();
  });

  test('the whole DB needs its number typed back', async ({ page, redis, admin }, testInfo) => {
    const s = await seed(admin, redis.port);
    const keys = new KeysPage(page);
    await keys.openOn('ka-all', redis);
    await keys.waitForCompleteTree();
    await keys.allKeys();

    const ka = new KeyActionsPanel(page);
    await ka.open('folder', 'delete');
    await expect(ka.pattern()).toHaveText('*');
    await ka.dryRun();
    await expect(ka.dry('matched')).toHaveText(String(s.total));
    await expect(ka.confirmDb()).toBeVisible();
    await expect(ka.runButton()).toBeDisabled();
    await ka.confirmDb().fill('1');
    await expect(ka.runButton()).toBeDisabled();
    await ka.screenshot(testInfo.outputPath('keys-actions-whole-db.png'));
    await ka.confirmDb().fill('0');
    await expect(ka.runButton()).toBeEnabled();
    await ka.run();
    await ka.waitForEnd('done');
    expect(await ka.runCount('acted')).toBe(s.total);
    expect(await admin.dbsize()).toBe(0);
  });

  test('a cancelled run reports exactly what it did, and resumed it ends with counts that add up', async ({ page, redis, admin }, testInfo) => {
    // Two paced runs over 60,000 keys and a TTL read of each key left: past 30 s on a loaded machine.
    test.setTimeout(120_000);
    const n = 60_000 + (redis.port % 1000);
    for (let i = 0; i < n; i += 10_000) {
      const p = admin.pipeline();
      for (let j = i; j < Math.min(n, i + 10_000); j++) p.set(`bulk:${j}`, 'x');
      await p.exec();
    }
    await admin.set('keep:1', 'k');
    const keys = new KeysPage(page);
    await keys.openOn('ka-cancel', redis);
    await keys.waitForCompleteTree();
    await keys.openFolder('bulk:');

    const ka = new KeyActionsPanel(page);
    await ka.open('folder', 'delete');
    await ka.dryRun();
    await expect(ka.dry('matched')).toHaveText(n.toLocaleString('en-US'));
    // Writes wait on the server for a few seconds (reads go on): the run is seen running, and cancelled mid-way.
    await admin.call('CLIENT', 'PAUSE', '4000', 'WRITE');
    await ka.run();
    await expect(ka.dialog().getByTestId('ka-run-state')).toHaveText('running');
    await ka.screenshot(testInfo.outputPath('keys-actions-progress.png'));
    await ka.cancel();
    await ka.waitForEnd('cancelled');
    const acted = await ka.runCount('acted');
    await expect(ka.headline()).toContainText(`with exactly ${acted.toLocaleString('en-US')} key`);
    // Exactly the keys gone are the ones the report counts; the rest, and the key outside the folder, are there.
    expect(await count(admin, 'bulk:*')).toBe(n - acted);
    expect(acted).toBeLessThan(n);
    expect(await admin.exists('keep:1')).toBe(1);
    await ka.screenshot(testInfo.outputPath('keys-actions-cancelled.png'));

    // Resumed, it goes on from its checkpoint: its report counts both parts, and the folder is empty.
    // (A key SCAN returns twice while the table shrinks is matched twice: the second time it is gone, so skipped.)
    await ka.resume();
    await ka.waitForEnd('done');
    expect(await ka.runCount('acted')).toBe(n);
    expect(await ka.runCount('errors')).toBe(0);
    expect(await ka.runCount('matched')).toBe(n + (await ka.runCount('skipped')));
    expect(await count(admin, 'bulk:*')).toBe(0);
    expect(await admin.exists('keep:1')).toBe(1);
    await ka.done();
  });

  test('a run cut by a Redis kill -9 resumes on the restarted server from the beginning: no key left, lower bounds said', async ({ page, redis, admin }) => {
    test.setTimeout(150_000);
    const n = 200_000 + (redis.port % 1000);
    await admin.eval(`for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'crash:' .. i, 'x') end`, 0, String(n));
    await admin.save();
    const keys = new KeysPage(page);
    await keys.openOn('ka-crash', redis);
    await keys.waitForCompleteTree();
    await keys.openFolder('crash:');
    const ka = new KeyActionsPanel(page);
    await ka.open('folder', 'delete');
    await ka.dryRun();
    await expect(ka.dry('matched')).toHaveText(n.toLocaleString('en-US'));
    // Once keys go, the run's UNLINKs are held on the server, which dies with them unanswered.
    await ka.run();
    await expect.poll(() => admin.dbsize(), { intervals: [2], timeout: 30_000 }).toBeLessThan(n);
    await admin.call('CLIENT', 'PAUSE', '20000', 'WRITE');
    redis.kill('SIGKILL');
    await ka.waitForEnd('failed');
    // Same port and dir: the new process loads the RDB saved before the run, every key back.
    const again = await spawnRedisServer({ port: redis.port, dir: redis.dir, readyTimeoutMs: 30_000 });
    try {
      await ka.resume();
      await ka.waitForEnd('done', 120_000);
      expect(await ka.runCount('acted')).toBe(n);
      expect(await ka.runCount('matched')).toBe(n);
      expect(await count(admin, 'crash:*')).toBe(0);
      await expect(ka.dialog().getByTestId('ka-run-notes')).toContainText('started again from the beginning');
      await expect(ka.dialog().getByTestId('ka-run-notes')).toContainText(/stopped while acting on [\d,]+ keys/);
      await expect(ka.runStatus()).toContainText(/at least: up to [\d,]+ uncounted/);
    } finally {
      await again.stop();
    }
  });

  test('a read-only profile offers no bulk action where a writable one does', async ({ page, redis, admin }) => {
    await seed(admin, redis.port);
    const keys = new KeysPage(page);
    await keys.openOn('ka-ro', redis);
    await keys.allKeys();
    const actions = new KeyActionsPanel(page);
    await expect(actions.buttons('folder')).toBeVisible();
    await expect(actions.buttons('list')).toBeVisible();
    // The embedded server's profile is read-only: the same page offers nothing there.
    await new AppShell(page).selectProfile('Local (embedded)');
    await keys.allKeys();
    await expect(keys.openColumn()).toHaveAttribute('data-can-edit', 'false');
    await expect(actions.buttons('folder')).toHaveCount(0);
    await expect(actions.buttons('list')).toHaveCount(0);
  });
});

test.describe('Keys page bulk actions on a Redis Cluster', () => {
  let cluster: TestCluster;

  test.beforeEach(async () => {
    cluster = await startCluster();
  });
  test.afterEach(async () => {
    // Unset when the test was skipped before its beforeEach (the electron project without a binary).
    await cluster?.stop();
  });

  test('the dry run counts per master, exactly; the delete acts on every master', async ({ page }) => {
    test.setTimeout(90_000);
    const [seed, ...others] = cluster.addresses as [string, ...string[]];
    const [host, port] = seed.split(':') as [string, string];
    const eu = 150 + (Number(port) % 40);
    const us = 60 + (Number(port) % 20);
    const client = new Cluster([{ host, port: Number(port) }]);
    try {
      for (let i = 0; i < eu; i++) await client.set(`price:eu:${i}`, 'p');
      for (let i = 0; i < us; i++) await client.set(`price:us:${i}`, 'p');
    } finally {
      client.disconnect();
    }
    // Each master's own share, read from the master itself.
    const onMaster = async (match: string) =>
      Promise.all(
        cluster.masters.map(async (m) => {
          const c = new Redis({ host: m.host, port: m.port });
          try {
            return { node: `${m.host}:${m.port}`, keys: await count(c, match) };
          } finally {
            c.disconnect();
          }
        }),
      );
    const before = await onMaster('price:eu:*');
    expect(before.filter((m) => m.keys > 0).length).toBeGreaterThan(1);

    const conns = new ConnectionsPage(page);
    await conns.open();
    const name = `ka-cluster-${port}`;
    await conns.add({ name, topology: 'cluster', host, port, seeds: others.slice(0, 2).join(', ') });
    const keys = new KeysPage(page);
    await keys.open('', name);
    await keys.waitForCompleteTree();
    await keys.openFolder('price:');
    await keys.openFolder('price:eu:');

    const ka = new KeyActionsPanel(page);
    await ka.open('folder', 'delete');
    await ka.dryRun();
    await expect(ka.dry('matched')).toHaveText(String(eu));
    for (const m of before) await expect(ka.dryShards().locator(`tr[data-node="${m.node}"] [data-col="matched"]`)).toHaveText(String(m.keys));
    await ka.run();
    await ka.waitForEnd('done');
    expect(await ka.runCount('acted')).toBe(eu);
    for (const m of await onMaster('price:eu:*')) expect(m.keys).toBe(0);
    expect((await onMaster('price:us:*')).reduce((a, m) => a + m.keys, 0)).toBe(us);
  });
});

test.describe('Keys page bulk actions for an analyst', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const server = useServeWithRoles();

  test('ops sees the actions on a folder and the list; an analyst on the same folder sees none', async ({ page, browser, redis, admin }) => {
    const serve = server();
    await seed(admin, redis.port);
    const shell = new AppShell(page);
    await shell.signIn(serve.url, OPS.name, OPS.password);
    await shell.addProfile(serve.url, `ka-ana-${redis.port}`, redis);
    const opsKeys = new KeysPage(page);
    await page.goto(`${serve.url}/#/keys`);
    await opsKeys.waitForCompleteTree();
    await opsKeys.openFolder('session:');
    const opsActions = new KeyActionsPanel(page);
    await expect(opsActions.buttons('folder')).toBeVisible();
    await expect(opsActions.buttons('list')).toBeVisible();
    const link = page.url();

    const context = await browser.newContext();
    try {
      const anaPage = await context.newPage();
      await new AppShell(anaPage).signIn(serve.url, ANALYST.name, ANALYST.password);
      await anaPage.goto(link);
      const keys = new KeysPage(anaPage);
      await keys.waitForCompleteTree();
      await expect(keys.matchBox()).toHaveValue('session:*');
      await expect(keys.folder('session:')).toHaveAttribute('aria-selected', 'true');
      const actions = new KeyActionsPanel(anaPage);
      await expect(actions.buttons('folder')).toHaveCount(0);
      await expect(actions.buttons('list')).toHaveCount(0);
      await expect(anaPage.getByRole('button', { name: /delete|set ttl|persist/i })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});
