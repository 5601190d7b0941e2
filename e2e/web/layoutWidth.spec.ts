import { AppShell } from '../pages/AppShell';
import { box, hiddenWidth } from '../pages/boxes';
import { openRoute } from '../pages/openRoute';
import { TrialsPage } from '../pages/TrialsPage';
import { expect, test } from '../redisFixture';

test.describe('Page width', () => {
  test('at 1280 the Connections table shows whole names and a whole RECONNECTING badge', async ({ page, redis }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const name = `Orders cache eu-west-1 (${redis.port})`;
    await new AppShell(page).addProfile('', name, redis);
    // The Overview's poller opens the profile's pool; then the server goes away and the pool keeps trying.
    await openRoute(page, 'overview');
    await expect(page.locator('.ov-card-up').first()).toBeVisible({ timeout: 15_000 });
    await openRoute(page, 'connections');
    const row = page.locator(`[data-testid="profile-row"][data-profile-name="${name}"]`);
    await expect(row.getByTestId('state-badge')).toHaveText('ready');
    await redis.stop();
    const badge = row.getByTestId('state-badge');
    await expect(badge).toHaveText('reconnecting', { timeout: 15_000 });

    expect(await hiddenWidth(badge), 'the badge cuts its text').toBeLessThanOrEqual(0);
    for (const cell of await row.locator('.row-main > span').all()) {
      const cls = await cell.getAttribute('class');
      expect(await hiddenWidth(cell), `${cls} is cut: "${await cell.innerText()}"`).toBeLessThanOrEqual(0);
    }
    // The row fits the page: its last button is inside the window.
    const buttons = row.locator('.col-actions button');
    const last = await box(buttons.last());
    expect(last.x + last.width).toBeLessThanOrEqual(1280);
  });

  test('at 1280 kept trial runs fit their panel and every Remove button is in view', async ({ page, redis }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const trials = new TrialsPage(page);
    // A profile named as teams name them: the Server column is as wide as the name on one line.
    await trials.openOn('orders cache eu-west-1 primary (shared by checkout and billing)', redis);
    await trials.pick('Pipeline');
    await trials.fill({ n: '300', batch: '50', sweepN: '60' });
    await trials.run('done');
    await trials.check('proxy');
    await trials.fill({ latencyMs: '0.2' });
    await trials.run('done');
    await expect(trials.kept('pipeline')).toHaveCount(2);

    const table = page.getByTestId('trials-kept-pipeline');
    const panel = table.locator('xpath=..');
    expect(await hiddenWidth(panel), 'the kept runs scroll sideways').toBeLessThanOrEqual(0);
    const panelBox = await box(panel);
    for (const remove of await page.getByTestId('trials-kept-remove').all()) {
      const b = await box(remove);
      expect(b.x).toBeGreaterThanOrEqual(panelBox.x);
      expect(b.x + b.width, 'Remove is cut off').toBeLessThanOrEqual(Math.min(panelBox.x + panelBox.width, 1280));
    }
  });

  test('pages grow with the window (Monitor always did), running text keeps a readable line', async ({ page }) => {
    const widths: Record<number, { connections: number; overview: number; intro: number }> = {};
    for (const w of [1280, 1920]) {
      await page.setViewportSize({ width: w, height: 900 });
      await openRoute(page, 'connections');
      const pageBox = await box(page.locator('main .page'));
      // The cap on a line of prose, as laid out (px; "none" reads as Infinity).
      const intro = await page
        .locator('main .page-intro')
        .first()
        .evaluate((e) => Number.parseFloat(getComputedStyle(e).maxWidth) || Number.POSITIVE_INFINITY);
      await openRoute(page, 'overview');
      await expect(page.locator('.ov-card-up').first()).toBeVisible({ timeout: 15_000 });
      const overview = await box(page.locator('main .page').first());
      widths[w] = { connections: pageBox.width, overview: overview.width, intro };
      // The Node panel's memory line wraps rather than cuts ("peak … rss … fr…").
      const sub = page.getByTestId('stat-memory').locator('xpath=following-sibling::span[contains(@class, "stat-sub")]');
      expect(await hiddenWidth(sub), `at ${w}: ${await sub.innerText()}`).toBeLessThanOrEqual(0);
    }
    const [narrow, wide] = [widths[1280], widths[1920]];
    if (narrow === undefined || wide === undefined) throw new Error('not measured');
    // 640 px more window: the content takes (nearly) all of it.
    expect(wide.connections - narrow.connections).toBeGreaterThan(600);
    expect(wide.overview - narrow.overview).toBeGreaterThan(600);
    // Prose keeps a reading width however wide the page gets.
    expect(wide.intro).toBeLessThanOrEqual(1000);
  });
});
