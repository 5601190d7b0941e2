import { readmeAclLine } from '../../testing/readmeAcl';
import { AppShell } from '../pages/AppShell';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

const ANALYST_PW = 'e2e-cb-analyst-3310';

test.describe("Connections: analysts' access per profile", () => {
  webOnly('analysts sign in on the web build only');
  const server = useServeWithRoles({ CACHEBOARD_SECRET_KEY: 'e2e-connections-analysts-key-01' });

  test('ops choose how analysts connect; a profile they share the ops user on is flagged; an ops-only one is hidden from analysts', async ({
    page,
    browser,
    redis,
    admin,
  }, testInfo) => {
    test.setTimeout(90_000);
    const serve = server();
    await admin.call('ACL', 'SETUSER', ...readmeAclLine(ANALYST_PW));
    const conns = new ConnectionsPage(page);
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await page.goto(`${serve.url}/#/connections`);

    // The default: the ops user, said plainly in the form and on the row.
    await conns.startAdd();
    await conns.fill({ name: 'shared', host: redis.host, port: String(redis.port) });
    await expect(page.getByTestId('analyst-shared')).toBeChecked();
    await expect(page.getByTestId('analyst-shared-warning')).toContainText('Analysts will read everything');
    await conns.save();
    await expect(conns.row('shared').getByTestId('analysts-shared')).toHaveText('analysts use this user');

    await conns.startAdd();
    await conns.fill({ name: 'own', host: redis.host, port: String(redis.port) });
    await page.getByTestId('analyst-user').check();
    await page.getByLabel('Analyst user', { exact: true }).fill('cb-analyst');
    await page.getByLabel('Analyst password', { exact: true }).fill(ANALYST_PW);
    await page.getByRole('form', { name: 'Add connection' }).screenshot({ path: testInfo.outputPath('connections-analysts-form.png') });
    await conns.save();
    await expect(conns.row('own').getByTestId('analysts-own')).toHaveText('analysts: cb-analyst');
    await expect(conns.row('own').getByTestId('analysts-shared')).toHaveCount(0);

    await conns.startAdd();
    await conns.fill({ name: 'ops-only', host: redis.host, port: String(redis.port) });
    await page.getByTestId('analyst-none').check();
    await conns.save();
    await expect(conns.row('ops-only').getByTestId('analysts-none')).toHaveText('ops only');

    // Every row's cells sit under their column heads, on one line (they once stacked in the first column).
    // The state column is as wide as its widest badge, so the rows settle first ("connecting" is wider
    // than "ready"), and every box is read in one evaluation, so no re-layout falls between two reads.
    await expect(page.getByTestId('state-badge')).toHaveText(Array(4).fill('ready'), { timeout: 15_000 });
    const cols = ['col-state', 'col-name', 'col-addr', 'col-user', 'col-tls', 'col-source'];
    const layout = await page.evaluate(
      ({ cols, names }) => {
        const left = (e: Element | null) => (e === null ? NaN : Math.round(e.getBoundingClientRect().left));
        const mid = (e: Element | null) => (e === null ? NaN : Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2));
        const heads = [...document.querySelectorAll('.list-head > span')].map(left);
        const rows = names.map((name) => {
          const row = document.querySelector(`[data-testid="profile-row"][data-profile-name="${name}"]`);
          const cells = cols.map((c) => row?.querySelector(`.row-main > .${c}`) ?? null);
          return { name, xs: cells.map(left), ys: cells.map(mid) };
        });
        return { heads, rows };
      },
      { cols, names: ['shared', 'own', 'ops-only'] },
    );
    for (const row of layout.rows) {
      for (const [i, col] of cols.entries()) {
        expect(Math.abs((row.xs[i] ?? NaN) - (layout.heads[i] ?? NaN)), `${row.name} ${col}`).toBeLessThanOrEqual(1);
      }
      expect(Math.max(...row.ys) - Math.min(...row.ys), `${row.name}: one line`).toBeLessThanOrEqual(2);
    }
    await page.screenshot({ path: testInfo.outputPath('connections-analysts-ops.png'), fullPage: true });

    const context = await browser.newContext();
    try {
      const ana = await context.newPage();
      await new AppShell(ana).signIn(serve.url, ANALYST.name, ANALYST.password);
      await ana.goto(`${serve.url}/#/connections`);
      const mine = new ConnectionsPage(ana);
      await expect(mine.row('own')).toBeVisible();
      await expect(mine.row('ops-only')).toHaveCount(0);
      // The analyst's own Redis user, and it works.
      await expect(mine.row('own').locator('.col-user')).toContainText('cb-analyst');
      await expect(await mine.test('own')).toHaveAttribute('data-state', 'ok', { timeout: 15_000 });
      await expect(mine.row('shared').getByTestId('analysts-shared')).toBeVisible();
      await ana.screenshot({ path: testInfo.outputPath('connections-analysts-analyst.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
