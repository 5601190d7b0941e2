import { Redis } from 'ioredis';
import { spawnRedisServer, type RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { startReplicaSet, type ReplicaSet } from '../../testing/replication';
import { AppShell } from '../pages/AppShell';
import { ConfigPage, receivedFrames } from '../pages/ConfigPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { callFromPage } from '../pages/pageSocket';
import { PageWatch } from '../pages/PageWatch';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';
import { startServe, type ServeProcess } from '../serveProcess';

const PASS = 'Pw-e2e-requirepass-4c1e';
const TLS_PASS = 'Pw-e2e-tls-key-pass-77aa';
/** A value a careless page would turn into markup; CONFIG SET takes it for the announced replica IP. */
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const at = (p: RedisProcess) => `${p.host}:${p.port}`;

test.describe('Config of a master and its replica', () => {
  // A serve of its own, whose REDIS_URL carries the password (the suite's server stores no typed password without a secret key).
  webOnly('the profile comes from REDIS_URL of a serve started for the test');
  let serve: ServeProcess | undefined;
  let set: ReplicaSet | undefined;
  let master: Redis | undefined;
  let replica: Redis | undefined;
  test.beforeEach(async () => {
    set = await startReplicaSet({ replicas: 1, password: PASS });
    master = new Redis({ host: set.master.host, port: set.master.port, password: PASS });
    replica = new Redis({ host: set.replicas[0]!.host, port: set.replicas[0]!.port, password: PASS });
    await replica.config('SET', 'maxmemory', '100mb');
    await replica.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await replica.config('SET', 'hz', '20');
    await master.config('SET', 'tls-key-file-pass', TLS_PASS);
    // On the master only: a master announces no address to anyone, so this changes nothing but its config.
    await master.config('SET', 'replica-announce-ip', HOSTILE);
    serve = await startServe({ REDIS_URL: set.master.url });
  });
  test.afterEach(async () => {
    await serve?.stop();
    master?.disconnect();
    replica?.disconnect();
    await set?.stop();
  });

  test('shows the nodes side by side: search, differences with their reason, secrets hidden, hostile values as text, an edit Redis refuses', async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    const s = set!;
    const watch = new PageWatch(page);
    await watch.install();
    const frames = receivedFrames(page);
    const config = new ConfigPage(page);
    await config.open(`REDIS_URL (${at(s.master)})`, serve!.url);
    await config.loaded();
    const m = at(s.master);
    const r = at(s.replicas[0]!);
    await expect(config.node(m)).toContainText('master');
    await expect(config.node(r)).toContainText(`replica of ${m}`);
    await expect(config.node(m)).toContainText('no config file');

    // The replica's maxmemory differs from its master's, and the page says why that matters.
    await expect(config.cell('maxmemory', m)).toHaveText('0');
    const odd = config.cell('maxmemory', r);
    await expect(odd).toHaveAttribute('data-diff', 'matters');
    await expect(odd).toContainText('104857600');
    await expect(odd).toContainText(`differs · matters Unlike its master ${m}: it evicts`);
    await expect(config.cell('port', r)).toHaveAttribute('data-diff', 'expected');

    // Secrets: hidden in the page, and never on the wire.
    const value = (param: string, address: string) => config.cell(param, address).locator('.cfg-value');
    await expect(value('requirepass', m)).toHaveText('hidden · set');
    await expect(value('tls-key-file-pass', m)).toHaveText('hidden · set');
    await expect(value('tls-key-file-pass', r)).toHaveText('hidden · not set');
    await expect(config.row('requirepass')).toContainText('secret');

    // A hostile value is text: the characters, no element, nothing run.
    await expect(value('replica-announce-ip', m)).toHaveText(HOSTILE);
    await expect(page.getByTestId('config-table').locator('img')).toHaveCount(0);
    await config.screenshot(testInfo.outputPath('config-all.png'));

    // Search by name or value; differences only.
    await config.search('maxmem');
    await expect(config.rows()).toHaveCount(
      await config
        .rows()
        .filter({ hasText: /maxmem/ })
        .count(),
    );
    await expect(config.row('maxmemory')).toBeVisible();
    await expect(config.row('port')).toHaveCount(0);
    await config.search('');
    await config.differencesOnly(true);
    await expect(config.row('maxmemory')).toBeVisible();
    await expect(config.cell('hz', r)).toHaveAttribute('data-diff', 'drift');
    await expect(config.cell('hz', r)).toContainText(`differs Unlike its master ${m}: nodes usually share it.`);
    await expect(config.row('port')).toHaveCount(0);
    await expect(config.row('databases')).toHaveCount(0);
    for (const differs of await config.rows().evaluateAll((rows) => rows.map((x) => x.getAttribute('data-differs')))) {
      expect(['matters', 'drift']).toContain(differs);
    }
    await shootBothThemes(page, 'docs/config.png', (path) => config.screenshot(path));

    // An edit Redis refuses: its error, per node, in its own words.
    const refused = await config.set('maxmemory', 'lots', 'every');
    for (const a of [m, r]) {
      await expect(config.result(refused, a)).toHaveAttribute('data-ok', 'false');
      await expect(config.result(refused, a)).toContainText('argument must be a memory value');
    }
    expect(await replica!.config('GET', 'maxmemory')).toEqual(['maxmemory', '104857600']);
    await config.screenshot(testInfo.outputPath('config-edit-refused.png'));
    // On the replica alone, back to its master's: the difference goes.
    const done = await config.set('maxmemory', '0', r);
    await expect(config.result(done, r)).toHaveText(`${r} ✓ set: 104857600 → 0`);
    await expect(config.result(done, m)).toHaveCount(0);
    await expect(config.cell('maxmemory', r)).not.toHaveAttribute('data-diff', 'matters');
    expect(await replica!.config('GET', 'maxmemory')).toEqual(['maxmemory', '0']);

    // A secret set through the page: the answer says so without the value.
    await page.getByTestId('config-edit').getByRole('button', { name: 'Close' }).click();
    await config.differencesOnly(false);
    await config.search('masterauth');
    const secret = await config.set('masterauth', PASS, r);
    await expect(config.result(secret, r)).toContainText('set (the value stays hidden)');

    const seen = await watch.settle();
    expect(seen.pwned).toEqual([]);
    expect(seen.dialogs).toEqual([]);
    expect(frames.length).toBeGreaterThan(3);
    for (const value of [PASS, TLS_PASS]) expect(frames.filter((f) => f.includes(value))).toEqual([]);
    expect(await page.locator('body').innerText()).not.toContain(PASS);
  });
});

test.describe('Config refused by the server', () => {
  let renamed: RedisProcess | undefined;
  test.beforeEach(async () => {
    renamed = await spawnRedisServer({ args: ['--rename-command', 'CONFIG', '""'] });
  });
  test.afterEach(async () => {
    await renamed?.stop();
  });

  test('a server that renamed CONFIG gets one clear note, and no table', async ({ page }) => {
    const name = await new ConnectionsPage(page).addServer('cfgrenamed', renamed!);
    const config = new ConfigPage(page);
    await config.open(name);
    await expect(config.refusal()).toHaveCount(1);
    await expect(config.refusal()).toContainText('CONFIG is not available on this server');
    await expect(config.refusal()).toContainText('renamed or disabled the command');
    await expect(config.refusal()).toContainText("Redis replied: ERR unknown command 'CONFIG'");
    await expect(config.node(at(renamed!))).toHaveCount(0);
    await expect(page.getByTestId('config-table')).toHaveCount(0);
  });
});

test.describe('Config for an analyst', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const server = useServeWithRoles();

  test('reads every setting, is offered no edit, and the server refuses every write it sends anyway', async ({ page, browser, redis, admin }) => {
    test.setTimeout(60_000);
    const serve = server();
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    const name = `cfgana-${redis.port}`;
    await new AppShell(page).addProfile(serve.url, name, redis);
    const context = await browser.newContext();
    try {
      const ana = await context.newPage();
      await new AppShell(ana).signIn(serve.url, ANALYST.name, ANALYST.password);
      const config = new ConfigPage(ana);
      await config.open(name, serve.url);
      await config.loaded();
      await expect(config.row('maxmemory')).toBeVisible();
      await expect(ana.getByTestId('config-edit-open')).toHaveCount(0);
      await expect(ana.getByTestId('config-rewrite')).toHaveCount(0);
      await expect(ana.getByTestId('config-readonly-note')).toHaveText('Changing settings: Needs the ops role; you are signed in as analyst.');

      const profileId = (await callFromPage(ana, 'connections.list', {})) as { ok: true; output: { profiles: { id: string; name: string }[] } };
      const id = profileId.output.profiles.find((p) => p.name === name)?.id;
      expect(id).toBeDefined();
      for (const [call, input] of [
        ['config.set', { profileId: id, name: 'maxmemory', value: '1mb', target: { scope: 'every' } }],
        ['config.rewrite', { profileId: id, target: { scope: 'every' } }],
      ] as const) {
        const reply = await callFromPage(ana, call, input);
        expect(reply.ok).toBe(false);
        if (!reply.ok) expect(reply.error.code).toBe('FORBIDDEN');
      }
      expect(await admin.config('GET', 'maxmemory')).toEqual(['maxmemory', '0']);
    } finally {
      await context.close();
    }
  });
});
