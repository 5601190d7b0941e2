import type { Page } from '@playwright/test';
import { AppShell } from '../pages/AppShell';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { callFromPage } from '../pages/pageSocket';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

/** The pages whose main call the contract gives to ops only (app/schemas: bulk.start, trials.start, monitor.watch, audit.list). */
const OPS_PAGES = ['bulk-load', 'pipeline-trials', 'monitor', 'audit'] as const;
const OPEN_PAGES = ['connections', 'overview', 'keys', 'console', 'sampling', 'audience-trials', 'pubsub', 'clients', 'config'] as const;
const REASON = 'Needs the ops role; you are signed in as analyst.';

async function goTo(page: Page, origin: string, route: string, profile?: string): Promise<void> {
  await page.goto(`${origin}/#/${route}`);
  if (profile !== undefined) await new AppShell(page).selectProfile(profile);
}

test.describe('Pages and controls follow the signed-in role', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const server = useServeWithRoles();

  test('an analyst is offered no control the server would refuse, and is told why; ops has them all', async ({ page, browser, redis }, testInfo) => {
    test.setTimeout(90_000);
    const serve = server();
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await page.goto(`${serve.url}/#/connections`);
    const profile = `roles-${redis.port}`;
    await new ConnectionsPage(page).add({ name: profile, host: redis.host, port: String(redis.port) });

    const context = await browser.newContext();
    try {
      const ana = await context.newPage();
      const shell = new AppShell(ana);
      await shell.signIn(serve.url, ANALYST.name, ANALYST.password);

      // The sidebar marks the ops pages, for the analyst as out of reach, and no other page.
      for (const route of OPS_PAGES) {
        await expect(shell.navRole(route)).toHaveText('ops');
        await expect(shell.navLinks().filter({ has: shell.navRole(route) })).toHaveClass(/is-locked/);
      }
      for (const route of OPEN_PAGES) await expect(shell.navRole(route)).toHaveCount(0);
      expect(await shell.pageLabels()).toContain('Pipeline trials');

      // Connections: Add is disabled with the reason; the profile's row has no Edit or Remove.
      await goTo(ana, serve.url, 'connections');
      await expect(ana.getByTestId('connections-add')).toBeDisabled();
      await expect(ana.getByTestId('connections-role-note')).toHaveText(REASON);
      const row = new ConnectionsPage(ana).row(profile);
      await expect(row.getByRole('button', { name: 'Test' })).toBeVisible();
      await expect(row.getByRole('button', { name: 'Edit' })).toHaveCount(0);
      await expect(row.getByRole('button', { name: 'Remove' })).toHaveCount(0);
      await ana.screenshot({ path: testInfo.outputPath('connections-analyst.png') });

      // Overview: BGSAVE and BGREWRITEAOF are disabled with the reason, before any confirmation.
      await goTo(ana, serve.url, 'overview', profile);
      await expect(ana.getByTestId('stat-role')).toBeVisible({ timeout: 15_000 });
      await expect(ana.getByTestId('action-bgsave')).toBeDisabled();
      await expect(ana.getByTestId('action-bgrewriteaof')).toBeDisabled();
      await expect(ana.getByTestId('action-bgsave')).toHaveAttribute('title', REASON);
      await expect(ana.getByTestId('action-role-note')).toHaveText(REASON);
      await ana.getByTestId('persistence').screenshot({ path: testInfo.outputPath('persistence-analyst.png') });

      // The ops pages say what they are for and why not, with no control and nothing to "try again".
      for (const route of OPS_PAGES) {
        await goTo(ana, serve.url, route, profile);
        const notice = ana.getByTestId('role-notice');
        await expect(notice).toContainText(REASON);
        await expect(ana.getByRole('button', { name: 'Try again' })).toHaveCount(0);
        await expect(ana.getByRole('alert')).toHaveCount(0);
        if (route === 'monitor') await ana.screenshot({ path: testInfo.outputPath('monitor-analyst.png') });
      }
      await expect(ana.getByTestId('trials-start')).toHaveCount(0);
      await goTo(ana, serve.url, 'pipeline-trials', profile);
      await expect(ana.getByTestId('trials-start')).toHaveCount(0);
      await goTo(ana, serve.url, 'monitor', profile);
      await expect(ana.getByTestId('monitor-start')).toHaveCount(0);

      // Audience trials: the demo load is disabled with the reason; the trial itself is the analyst's too.
      await goTo(ana, serve.url, 'audience-trials', profile);
      await expect(ana.getByTestId('aud-demo-load')).toBeDisabled();
      await expect(ana.getByTestId('aud-run')).toBeVisible();

      // Should the page be skipped, the refusal speaks of what the person did, not of call names.
      const refused = await callFromPage(ana, 'metrics.action', { profileId: 'x', address: '127.0.0.1:1', action: 'bgsave' });
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('FORBIDDEN');
        expect(refused.error.message).not.toMatch(/metrics|\.action|\w+\.\w+ needs/);
        expect(refused.error.message).toContain('ops');
      }
    } finally {
      await context.close();
    }

    // The control: ops sees the same pages with their controls and no tag of being locked out.
    for (const route of OPS_PAGES) {
      await expect(new AppShell(page).navRole(route)).toHaveText('ops');
      await expect(new AppShell(page).navLinks().filter({ has: new AppShell(page).navRole(route) })).not.toHaveClass(/is-locked/);
    }
    await goTo(page, serve.url, 'pipeline-trials', profile);
    await expect(page.getByTestId('trials-start')).toBeEnabled();
    await goTo(page, serve.url, 'monitor', profile);
    await expect(page.getByTestId('monitor-start')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('role-notice')).toHaveCount(0);
    await goTo(page, serve.url, 'overview', profile);
    await expect(page.getByTestId('action-bgsave')).toBeEnabled({ timeout: 15_000 });
    await expect(page.getByTestId('action-role-note')).toHaveCount(0);
    await goTo(page, serve.url, 'connections');
    await expect(page.getByTestId('connections-add')).toBeEnabled();
    await expect(new ConnectionsPage(page).row(profile).getByRole('button', { name: 'Edit' })).toBeVisible();
  });
});
