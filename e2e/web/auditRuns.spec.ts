import type { RedisProcess } from '../../main/core/redisProcess/spawnRedisServer';
import { AppShell } from '../pages/AppShell';
import { AudiencePage } from '../pages/AudiencePage';
import { AuditPage } from '../pages/AuditPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MonitorPage } from '../pages/MonitorPage';
import { callFromPage } from '../pages/pageSocket';
import { useReplicaSet } from '../replicaSet';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

const at = (p: RedisProcess) => `${p.host}:${p.port}`;

test.describe('Audit log: one row per MONITOR view', () => {
  const replicaSet = useReplicaSet(2);

  test('three nodes watched, then a filter change: two rows, each naming the three nodes and its filter', async ({ page, shell }, testInfo) => {
    test.skip(shell === 'electron', "reads the web build's shared audit log");
    test.setTimeout(60_000);
    const { master, replicas } = replicaSet();
    const name = await new ConnectionsPage(page).addServer('audmon', master);
    const monitor = new MonitorPage(page);
    await monitor.open(name);
    for (const r of replicas) await monitor.node(at(r)).check();
    await monitor.start();
    for (const n of [master, ...replicas]) await monitor.live(at(n));
    await monitor.filter('commands', 'SET');
    await page.getByTestId('monitor-apply').click();
    for (const n of [master, ...replicas]) await monitor.live(at(n));
    await page.getByTestId('monitor-stop').click();

    const audit = new AuditPage(page);
    await audit.open();
    // The run's shared log holds other specs' MONITOR rows: these name this master's port.
    await audit.filter(`monitor ${at(master)}`);
    // A view's end is written a moment after its last pane closes (a reopen within it stays the same view).
    await expect
      .poll(
        async () => {
          await audit.refresh();
          return audit.rows({ action: 'monitor', outcome: 'ok' }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(2);
    await expect(audit.rows()).toHaveCount(2);
    const [changed, first] = [audit.rows().nth(0), audit.rows().nth(1)];
    for (const row of [changed, first]) {
      for (const n of [master, ...replicas]) await expect(audit.cell(row, 'detail')).toContainText(at(n));
      await expect(audit.cell(row, 'took')).toHaveText(/\d s$/);
    }
    await expect(audit.cell(changed, 'detail')).toContainText('commands SET');
    await expect(audit.cell(first, 'detail')).toContainText('all commands');
    await page.screenshot({ path: testInfo.outputPath('audit-monitor.png'), fullPage: true });
  });
});

test.describe('Audit log: refused attempts and audience trials', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const server = useServeWithRoles();

  test("an analyst's refused call and an audience trial run are on the record", async ({ page, browser }, testInfo) => {
    test.setTimeout(90_000);
    const serve = server();
    const context = await browser.newContext();
    let term: string | undefined;
    try {
      const ana = await context.newPage();
      await new AppShell(ana).signIn(serve.url, ANALYST.name, ANALYST.password);
      // What a page no longer offers an analyst, sent anyway.
      const refused = await callFromPage(ana, 'metrics.action', { profileId: 'embedded', address: '127.0.0.1:1', action: 'bgsave' });
      expect(refused.ok).toBe(false);

      // An audience trial on the embedded server's demo data, run by the analyst from the page.
      await ana.goto(`${serve.url}/#/audience-trials`);
      const aud = new AudiencePage(ana);
      await expect(aud.attributes().first()).toBeVisible({ timeout: 20_000 });
      const attr = (await aud.attributeNames())[0] as string;
      const value = (await aud.chipValues(attr))[0] as string;
      term = `${attr}=${value}`;
      await aud.chip(attr, value).click();
      await aud.fill({ trials: '1', warmup: '0' });
      await aud.run('done');
    } finally {
      await context.close();
    }

    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    const audit = new AuditPage(page);
    await audit.open(serve.url);
    const refusal = audit.rows({ action: 'metrics.action', outcome: 'refused' });
    await expect(refusal).toHaveCount(1);
    await expect(audit.cell(refusal, 'user')).toHaveText(ANALYST.name);
    await expect(audit.cell(refusal, 'target')).toHaveText('127.0.0.1:1');
    await expect(audit.cell(refusal, 'detail')).toHaveText('Only ops users can do this; you are signed in as analyst.');

    const trial = audit.rows({ action: 'audience.trial', outcome: 'ok' });
    await expect(trial).toHaveCount(1);
    await expect(audit.cell(trial, 'user')).toHaveText(ANALYST.name);
    await expect(audit.cell(trial, 'detail')).toContainText(term ?? 'no term picked');
    await expect(audit.cell(trial, 'detail')).toContainText(/[\d,]+ users in the audience/);
    await expect(audit.cell(trial, 'took')).toHaveText(/\d s$/);
    await expect(audit.rows({ outcome: 'started' })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('audit-refused-trial.png'), fullPage: true });
  });
});
