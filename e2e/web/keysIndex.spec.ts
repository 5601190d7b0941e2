import { AppShell } from '../pages/AppShell';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { KeyActionsPanel } from '../pages/KeyActionsPanel';
import { KeysPage } from '../pages/KeysPage';
import { openRoute } from '../pages/openRoute';
import { callFromPage } from '../pages/pageSocket';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

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

    // Every index build the page asks for, as it goes over the socket.
    const starts: string[] = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => typeof f.payload === 'string' && f.payload.includes('"keys.index.start"') && starts.push(f.payload)),
    );

    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await page.goto(`${serve.url}/#/connections`);
    const profileName = `keys-index-${redis.port}`;
    await new ConnectionsPage(page).add({ name: profileName, host: redis.host, port: String(redis.port) });
    await new AppShell(page).selectProfile(profileName);
    await openRoute(page, 'keys', serve.url);
    const keys = new KeysPage(page);
    await keys.waitForCompleteTree();
    await expect(keys.indexAge()).toHaveText(/^built \d+s ago$/);
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
      const anaStarts: string[] = [];
      anaPage.on('websocket', (ws) =>
        ws.on('framesent', (f) => typeof f.payload === 'string' && f.payload.includes('"keys.index.start"') && anaStarts.push(f.payload)),
      );
      await new AppShell(anaPage).signIn(serve.url, ANALYST.name, ANALYST.password);
      await new AppShell(anaPage).selectProfile(profileName);
      await openRoute(anaPage, 'keys', serve.url);
      const ana = new KeysPage(anaPage);
      await ana.waitForCompleteTree();
      await expect(ana.folderCount('rate:')).toHaveText(String(kept));
      await expect(ana.indexAge()).toHaveText(/^built \d+s ago$/);
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
});
