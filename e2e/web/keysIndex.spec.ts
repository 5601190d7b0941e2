import { AppShell } from '../pages/AppShell';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { KeyActionsPanel } from '../pages/KeyActionsPanel';
import { KeysPage } from '../pages/KeysPage';
import { openRoute } from '../pages/openRoute';
import { callFromPage } from '../pages/pageSocket';
import { expect, test, webOnly } from '../redisFixture';
import type { Page } from '@playwright/test';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

/** Every index scan the page set off, as the socket carries it: a Re-index sent, or an open the server answered with a new scan. */
function trackBuilds(page: Page): string[] {
  const builds: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => typeof f.payload === 'string' && f.payload.includes('"keys.index.start"') && builds.push(f.payload));
    ws.on('framereceived', (f) => typeof f.payload === 'string' && f.payload.includes('"started":true') && builds.push(f.payload));
  });
  return builds;
}

test.describe('Keys index: shared, its age said, kept up to date by bulk deletes', () => {
  webOnly("reads the page's WebSocket frames, and an analyst signs in");
  const server = useServeWithRoles();

  test('a bulk delete takes its keys out of the tree and list with no new scan; an analyst uses the index ops built, told its age', async ({
    page,
    browser,
    redis,
    admin,
  }) => {
    test.setTimeout(90_000);
    const serve = server();
    // Sizes varied by the server's port, so no count is a constant the page could fake.
    const gone = 40 + (redis.port % 13);
    const kept = 25 + (redis.port % 7);
    const p = admin.pipeline();
    for (let i = 0; i < gone; i++) p.set(`rate:10.1.${i}`, 'r');
    for (let i = 0; i < kept; i++) p.set(`rate:10.2.${i}`, 'r');
    await p.exec();

    // Every index build the page sets off, as it goes over the socket.
    const starts = trackBuilds(page);

    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await page.goto(`${serve.url}/#/connections`);
    const profileName = `keys-index-${redis.port}`;
    await new ConnectionsPage(page).add({ name: profileName, host: redis.host, port: String(redis.port) });
    await new AppShell(page).selectProfile(profileName);
    await openRoute(page, 'keys', serve.url);
    const keys = new KeysPage(page);
    await keys.waitForCompleteTree();
    await expect(keys.indexLine()).toHaveText(new RegExp(`^indexed ${gone + kept} keys, \\d+s ago`));
    await expect(keys.folderCount('rate:')).toHaveText(String(gone + kept));
    await expect(keys.allKeysCount()).toHaveText(String(gone + kept));
    expect(starts).toHaveLength(1);

    await keys.match('rate:10.1*');
    expect(await keys.listedCount()).toBe(gone);
    const ka = new KeyActionsPanel(page);
    await ka.open('list', 'delete');
    await ka.dryRun();
    await ka.run();
    await ka.waitForEnd('done');
    expect(await ka.runCount('acted')).toBe(gone);
    await ka.done();

    // The same index, its counts the DB's again: the folder and the list lose the deleted keys.
    await expect(keys.folderCount('rate:')).toHaveText(String(kept), { timeout: 20_000 });
    await expect(keys.allKeysCount()).toHaveText(String(kept));
    expect(await keys.listedCount()).toBe(0);
    await keys.match('rate:*');
    expect(await keys.listedCount()).toBe(kept);
    await expect(keys.indexStale()).toHaveCount(0);
    expect(starts).toHaveLength(1);

    // An analyst opens the same DB: the index ops built, its age said, no build of their own.
    const context = await browser.newContext();
    try {
      const anaPage = await context.newPage();
      const anaStarts = trackBuilds(anaPage);
      await new AppShell(anaPage).signIn(serve.url, ANALYST.name, ANALYST.password);
      await new AppShell(anaPage).selectProfile(profileName);
      await openRoute(anaPage, 'keys', serve.url);
      const ana = new KeysPage(anaPage);
      await ana.waitForCompleteTree();
      await expect(ana.folderCount('rate:')).toHaveText(String(kept));
      await expect(ana.indexLine()).toHaveText(new RegExp(`^indexed ${kept} keys, \\d+s ago`));
      await expect(ana.buildButton()).toBeDisabled();
      expect(anaStarts).toHaveLength(0);
      // The refresh the page does not offer, sent anyway: the server refuses it, saying why.
      const refresh = await callFromPage(anaPage, 'keys.index.start', { profileId: await ana.profileId(), separator: ':' });
      expect(refresh.ok).toBe(false);
      if (!refresh.ok) {
        expect(refresh.error.code).toBe('FORBIDDEN');
        expect(refresh.error.message).toMatch(/already has an index by this separator \(built \d+ (s|min) ago\): analysts use the shared index/);
      }
    } finally {
      await context.close();
    }
  });

  test('kept between visits: away and back reuses it at once (no scan, no progress), its age and keep rule said; Re-index scans again', async ({
    page,
    redis,
    admin,
  }) => {
    test.setTimeout(90_000);
    const serve = server();
    const n = 30 + (redis.port % 11);
    const p = admin.pipeline();
    for (let i = 0; i < n; i++) p.set(`kept:${i}`, 'v');
    await p.exec();
    const builds = trackBuilds(page);
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await page.goto(`${serve.url}/#/connections`);
    const profileName = `keys-kept-${redis.port}`;
    await new ConnectionsPage(page).add({ name: profileName, host: redis.host, port: String(redis.port) });
    await new AppShell(page).selectProfile(profileName);
    await openRoute(page, 'keys', serve.url);
    const keys = new KeysPage(page);
    await keys.waitForCompleteTree();
    expect(builds).toHaveLength(1);
    const firstLine = await keys.indexLine().textContent();

    // A key added behind the page's back: a reused index does not see it (no scan), a Re-index does.
    await admin.set('kept:late', 'v');
    await openRoute(page, 'overview', serve.url);
    await openRoute(page, 'keys', serve.url);
    await keys.waitForCompleteTree();
    await expect(keys.indexLine()).toHaveText(new RegExp(`^indexed ${n} keys, \\d+s ago`));
    await expect(keys.indexKept()).toHaveText('kept between visits · re-scanned on opening after 15m');
    await expect(page.getByTestId('keys-index-progress')).toHaveCount(0);
    await expect(keys.folderCount('kept:')).toHaveText(String(n));
    expect(builds).toHaveLength(1);
    expect(firstLine).toMatch(new RegExp(`^indexed ${n} keys`));

    await expect(keys.buildButton()).toHaveText('Re-index');
    await keys.refresh();
    await expect(keys.folderCount('kept:')).toHaveText(String(n + 1), { timeout: 30_000 });
    await keys.waitForCompleteTree();
    await expect(keys.indexLine()).toHaveText(new RegExp(`^indexed ${n + 1} keys, \\d+s ago`));
    expect(builds).toHaveLength(2);
    // For a person to look at (the brief's 1280×800 and 1920×1080, light and dark); nothing is asserted on them.
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      for (const theme of ['light', 'dark'] as const) {
        await page.getByLabel('Theme').selectOption(theme);
        await page.screenshot({ path: test.info().outputPath(`kept-${theme}-${w}.png`) });
      }
    }
  });
});
