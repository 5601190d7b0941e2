import { AppShell } from '../pages/AppShell';
import { AudiencePage } from '../pages/AudiencePage';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

test.describe("Audience trials: an analyst's trial only reads", () => {
  webOnly('analysts sign in on the web build only');
  const server = useServeWithRoles();

  test('Run is disabled with the reason for an audience only scratch keys can answer; an AND of terms runs with sets alone', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const serve = server();
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    const opsAudience = new AudiencePage(page);
    const context = await browser.newContext();
    try {
      const ana = await context.newPage();
      await new AppShell(ana).signIn(serve.url, ANALYST.name, ANALYST.password);
      const audience = new AudiencePage(ana);
      await ana.goto(`${serve.url}/#/audience-trials`);
      await new AppShell(ana).selectProfile('Local (embedded)');
      // The embedded server's demo data is written at start-up, in the background.
      await expect(audience.attributes().first()).toBeVisible({ timeout: 30_000 });
      await audience.fill({ from: '2024-01-01', to: '2024-01-07' });

      await audience.where().fill('gender=f OR region=NE');
      await expect(audience.parse()).toHaveAttribute('data-state', 'valid');
      await expect(audience.runButton()).toBeDisabled();
      await expect(ana.getByTestId('aud-read-only')).toContainText('Ask an ops user to run this one');

      await audience.where().fill('gender=f AND region=NE');
      await expect(audience.parse()).toHaveAttribute('data-state', 'valid');
      await expect(audience.runButton()).toBeEnabled();
      await expect(ana.getByTestId('aud-read-only')).toContainText('strategies that would store scratch keys are skipped');
      await audience.run('done');
      await expect(audience.strategyRow('sets')).toBeVisible();
      await expect(audience.strategyRow('sets')).not.toHaveAttribute('data-state', 'skipped');
      for (const name of ['bitmap-lua', 'bitmap-pipeline', 'zunionstore'] as const) {
        await expect(audience.cell(name, 'skipped')).toContainText("an analyst's trial only reads");
      }
      await audience.screenshot(testInfo.outputPath('audience-analyst.png'));
    } finally {
      await context.close();
    }
    // Ops are not held to it: their Run stays enabled for the same OR.
    await page.goto(`${serve.url}/#/audience-trials`);
    await new AppShell(page).selectProfile('Local (embedded)');
    await opsAudience.where().fill('gender=f OR region=NE');
    await expect(opsAudience.parse()).toHaveAttribute('data-state', 'valid');
    await expect(opsAudience.runButton()).toBeEnabled();
    await expect(page.getByTestId('aud-read-only')).toHaveCount(0);
  });
});
