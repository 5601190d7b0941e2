import type { Redis } from 'ioredis';
import { AppShell } from '../pages/AppShell';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { KeysPage, keyParam } from '../pages/KeysPage';
import { longestTask, resetLongestTask, watchLongTasks } from '../pages/longTasks';
import { MonitorPage } from '../pages/MonitorPage';
import { MetricsPage } from '../pages/MetricsPage';
import { SamplingPage } from '../pages/SamplingPage';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

const HTML_KEY = 'evil:<img src=x onerror=alert(1)>';
/** `bin:` then 0xff, CR, LF: not UTF-8, and control characters a row must not break on. */
const BINARY_KEY = Buffer.from([0x62, 0x69, 0x6e, 0x3a, 0xff, 0x0d, 0x0a]);
/** A right-to-left override: shown escaped, so the name cannot read backwards. */
const BIDI_KEY = 'evil:gpj.\u202eexe';

interface Seeded {
  /** Keys under each top-level folder. */
  folders: Record<string, number>;
  /** Keys under user:profile: (hashes). */
  profiles: number;
  total: number;
  /** Strings under cache: that have a TTL, and those without. */
  cacheTtl: number;
  cacheNoTtl: number;
}

/** A known keyspace: a few namespaces of different types and sizes, TTLs on some, three hostile names. */
async function seed(admin: Redis, n: number): Promise<Seeded> {
  const users = 40 + (n % 17);
  const profiles = 12 + (n % 9);
  const cacheTtl = 9 + (n % 5);
  const cacheNoTtl = 6 + (n % 4);
  const tags = 5 + (n % 6);
  const p = admin.pipeline();
  for (let i = 0; i < users; i++) p.set(`user:${i}`, `name-${i}`);
  for (let i = 0; i < profiles; i++) p.hset(`user:profile:${i}`, { name: `n${i}`, city: 'x' });
  for (let i = 0; i < cacheTtl; i++) p.set(`cache:page:${i}`, `<p>${i}</p>`, 'EX', 600);
  for (let i = 0; i < cacheNoTtl; i++) p.set(`cache:keep:${i}`, `k${i}`);
  for (let i = 0; i < tags; i++) p.sadd(`tag:${i}`, 'a', 'b');
  p.set(HTML_KEY, 'h');
  p.set(BIDI_KEY, 'b');
  p.set(BINARY_KEY, 'x');
  await p.exec();
  return {
    folders: { 'user:': users + profiles, 'cache:': cacheTtl + cacheNoTtl, 'tag:': tags, 'evil:': 2, 'bin:': 1 },
    profiles,
    total: users + profiles + cacheTtl + cacheNoTtl + tags + 3,
    cacheTtl,
    cacheNoTtl,
  };
}

test.describe('Keys page: tree, finding, names, links', () => {
  test.beforeEach(({ page }) => {
    page.on('dialog', (d) => {
      throw new Error(`a dialog opened: ${d.message()}`);
    });
  });

  test('the tree counts every key written, by folder, and hostile names render as text', async ({ page, redis, admin }, testInfo) => {
    const s = await seed(admin, redis.port);
    const keys = new KeysPage(page);
    await keys.openOn('keys-tree', redis);
    await keys.waitForCompleteTree();
    await expect(keys.indexLine()).toContainText(`${s.total} keys`);

    for (const [prefix, count] of Object.entries(s.folders)) await expect(keys.folderCount(prefix)).toHaveText(String(count));
    await keys.openFolder('user:');
    await expect(keys.folderCount('user:profile:')).toHaveText(String(s.profiles));
    // The folder's keys fill the list: exactly its count, and the pattern says which.
    await expect(keys.matchBox()).toHaveValue('user:*');
    expect(await keys.listedCount()).toBe(s.folders['user:']);
    // The folder's type mix, sampled on demand: strings and the profiles' hashes.
    const stats = await keys.stats();
    await expect(stats.locator('li[data-type="string"]')).toBeVisible();
    await expect(stats.locator('li[data-type="hash"]')).toBeVisible();

    await keys.openFolder('evil:');
    await keys.openFolder('bin:');
    const tree = keys.tree();
    await expect(tree).toContainText('<img src=x onerror=alert(1)>');
    await expect(tree).toContainText('gpj.\\u202eexe');
    await expect(tree).toContainText('\\xff\\r\\n');
    await keys.match('evil:*');
    const listed = await keys.listedTexts();
    expect(listed.sort()).toEqual([HTML_KEY, 'evil:gpj.\\u202eexe'].sort());
    await expect(page.locator('img')).toHaveCount(0);
    // The whole name is the tooltip.
    await expect(keys.row(HTML_KEY).locator('.keys-name')).toHaveAttribute('title', HTML_KEY);

    await keys.openFolder('user:');
    await keys.stats();
    await keys.row('user:1').click();
    await keys.expectOpen('user:1');
    await keys.screenshot(testInfo.outputPath('keys.png'));
  });

  test('glob, type and no-TTL filters narrow the list; a bad escape names its position', async ({ page, redis, admin }) => {
    const s = await seed(admin, redis.port);
    const keys = new KeysPage(page);
    await keys.openOn('keys-find', redis);
    await keys.waitForCompleteTree();

    await keys.match('cache:*');
    expect(await keys.listedCount()).toBe(s.cacheTtl + s.cacheNoTtl);
    await keys.noTtl(true);
    const kept = await keys.listedTexts();
    expect(kept).toHaveLength(s.cacheNoTtl);
    expect(kept.every((k) => k.startsWith('cache:keep:'))).toBe(true);
    await keys.noTtl(false);

    await keys.match('user:*');
    await keys.filterType('hash');
    const hashes = await keys.listedTexts();
    expect(hashes).toHaveLength(s.profiles);
    expect(hashes.every((k) => k.startsWith('user:profile:'))).toBe(true);
    await keys.filterType('');

    // Typed escaped: the binary key's bytes are found by its shown name.
    await keys.match('bin:\\xff*');
    expect(await keys.listedTexts()).toEqual(['bin:\\xff\\r\\n']);

    await keys.matchBox().fill('bin:\\xZZ');
    await expect(keys.fieldError('match')).toContainText('position 5');

    // TTL and memory sorts need the deep index: the page says so instead of listing.
    await keys.sortBy('ttl');
    await expect(page.getByTestId('keys-needs-deep')).toContainText('deep index');
  });

  test('an exact name opens with no scan; the open key and folder survive a reload and a deep link opens a binary key', async ({ page, redis, admin }) => {
    await seed(admin, redis.port);
    const keys = new KeysPage(page);
    await keys.openOn('keys-link', redis);
    await keys.waitForCompleteTree();

    await keys.openExact('bin:\\xff\\r\\n');
    await keys.expectOpen(BINARY_KEY);
    await keys.openExact('bin:\\q');
    await expect(keys.fieldError('key')).toContainText('position 5');

    await keys.openFolder('user:');
    await keys.row('user:3').click();
    await keys.expectOpen('user:3');
    expect(page.url()).toContain(`key=${keyParam('user:3')}`);
    await page.reload();
    await keys.expectOpen('user:3');
    await expect(keys.folder('user:')).toHaveAttribute('aria-selected', 'true');
    await expect(keys.matchBox()).toHaveValue('user:*');
    // A link followed while the view changes before its hashchange arrives (a delete's answer
    // closing the panel did this): the view's URL sync must not write over the newer link.
    const linkHash = `#/keys?profile=${await keys.profileId()}&db=0&key=${keyParam('user:7')}`;
    const otherRow = await keys.row('user:2').elementHandle();
    await page.evaluate(
      ([row, hash]) => {
        window.location.hash = hash as string;
        (row as HTMLElement).click();
      },
      [otherRow, linkHash] as const,
    );
    await keys.expectOpen('user:7');
    await keys.openFolder('user:');
    await keys.row('user:3').click();
    await keys.expectOpen('user:3');
    // A folder two levels down: the tree opens down to it again, and its stats are offered.
    await keys.openFolder('user:profile:');
    await page.reload();
    await expect(keys.folder('user:profile:')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('keys-folder-stats')).toContainText('user:profile:');
    await keys.expectOpen('user:3');

    // A link from elsewhere (another tab, another page): the profile, DB and key's bytes.
    const profile = await keys.profileId();
    await keys.open(`profile=${profile}&db=0&key=${keyParam(BINARY_KEY)}`);
    await keys.expectOpen(BINARY_KEY);
    await page.reload();
    await keys.expectOpen(BINARY_KEY);

    // Another DB: the link's DB is chosen, and the tree is that DB's.
    await admin.select(2);
    await admin.set('db2:only', 'x');
    await admin.select(0);
    await keys.open(`profile=${profile}&db=2&key=${keyParam('db2:only')}`);
    await keys.expectOpen('db2:only');
    await expect(page.getByTestId('keys-db')).toHaveValue('2');
    await keys.waitForCompleteTree();
    await expect(keys.folderCount('db2:')).toHaveText('1');
    await expect(keys.folder('user:')).toHaveCount(0);
  });

  test('a scan in progress is shown as it grows, and a cancelled one says incomplete', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(120_000);
    // Enough keys that the scan takes seconds: 300,000 in 50 folders of big:, and 700,000 more.
    const big = 300_000;
    const n = 1_000_000;
    for (let from = 0; from < n; from += 20_000) {
      const p = admin.pipeline();
      for (let i = from; i < Math.min(n, from + 20_000); i++) p.set(i < big ? `big:${i % 50}:${i}` : `pad:${i}`, '1');
      await p.exec();
    }
    await watchLongTasks(page);
    const keys = new KeysPage(page);
    await keys.openOn('keys-scan', redis);
    await expect(keys.indexState()).toHaveText('scanning');
    // Hold the server still (CLIENT PAUSE stalls the scan's next SCAN): what the page shows now is
    // a scan in progress, and Cancel lands before it could end.
    await admin.client('PAUSE', '4000', 'ALL');
    await expect(keys.indexLine()).toContainText(`of ${n.toLocaleString('en-US')} scanned`);
    await expect(page.getByTestId('keys-index-progress')).toBeVisible();
    await keys.screenshot(testInfo.outputPath('keys-scanning.png'));
    await page.getByTestId('keys-cancel').click();
    await expect(keys.indexState()).toHaveText('incomplete', { timeout: 15_000 });
    await expect(keys.indexLine()).toContainText('before it was cancelled');
    // Refresh scans again, to the end this time.
    await keys.refresh();
    await keys.waitForCompleteTree();
    await expect(keys.folderCount('big:')).toHaveText(big.toLocaleString('en-US'));
    await expect(keys.folderCount('pad:')).toHaveText((n - big).toLocaleString('en-US'));

    // A folder of 6,000 keys: the tree pages it, the list reads it all as it scrolls, and no
    // main-thread task of the page runs long (only the rows in view are in the DOM).
    await resetLongestTask(page);
    await keys.openFolder('big:');
    await keys.openFolder('big:0:');
    const inFolder = big / 50;
    await expect(keys.treeKeys().first()).toBeVisible();
    // The folder's first 500 keys, then "Show more" (below them, above the next folders).
    await keys.scrollTreeTo('Show more (500 of 6,000)');
    await keys.tree().getByRole('treeitem', { name: 'Show more (500 of 6,000)' }).click();
    await keys.scrollTreeTo('Show more (1,000 of 6,000)');
    expect(await keys.treeKeys().count()).toBeLessThan(100);
    await expect(keys.rows().first()).toBeVisible();
    for (let i = 0; i < 60 && !(await keys.listStatus().innerText()).startsWith('complete'); i++) {
      await keys.list().evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.waitForTimeout(100);
    }
    expect(await keys.listedCount()).toBe(inFolder);
    expect(await keys.rows().count()).toBeLessThan(100);
    const longest = await longestTask(page);
    // Chromium reports tasks of 50 ms and more: 0 means none was that long.
    const said = longest === 0 ? 'none of 50 ms or more' : `${longest.toFixed(0)} ms`;
    testInfo.annotations.push({ type: 'longest main-thread task', description: said });
    console.log(`Keys page, a 6,000-key folder opened and listed to the end: longest main-thread task ${said}`);
    expect(longest).toBeLessThan(100);
  });

  test("Sampling's biggest keys, SLOWLOG arguments and Monitor's hot keys open that exact key in Keys", async ({ page, redis, admin }) => {
    test.setTimeout(60_000);
    await seed(admin, redis.port);
    // The binary key is the biggest, and its SET is in the slow log (every command is, for a moment).
    await admin.config('SET', 'slowlog-log-slower-than', '0');
    await admin.set(BINARY_KEY, 'v'.repeat(20_000));
    await admin.config('SET', 'slowlog-log-slower-than', '10000');
    const keys = new KeysPage(page);
    const name = await keys.openOn('keys-from', redis);

    const sampling = new SamplingPage(page);
    await sampling.open();
    await sampling.run('census', {});
    const top = sampling.topByMemory().locator('tbody tr').first();
    await expect(top).toContainText('bin:\\xff\\r\\n');
    await top.getByTestId('key-open-link').click();
    await expect(page).toHaveURL(/#\/keys\?/);
    await keys.expectOpen(BINARY_KEY);

    await new MetricsPage(page).open(name);
    const entry = page.getByTestId('slowlog').locator('tr', { hasText: 'bin:\\xff\\r\\n' }).first();
    await entry.getByTestId('key-open-link').click({ timeout: 15_000 });
    await keys.expectOpen(BINARY_KEY);

    const monitor = new MonitorPage(page);
    await monitor.open(name);
    await monitor.start();
    await monitor.live();
    for (let i = 0; i < 30; i++) await admin.get('user:7');
    const hot = page.getByTestId('monitor-top-keys').locator('tr[data-name="user:7"]');
    await hot.getByTestId('key-open-link').click({ timeout: 15_000 });
    await keys.expectOpen('user:7');
  });
});

test.describe('Keys page for an analyst', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const server = useServeWithRoles();

  test('browses and opens keys but is given no edit controls; ops on the same key is', async ({ page, browser, redis, admin }) => {
    const serve = server();
    await seed(admin, redis.port);
    // Ops adds an ordinary (editable) profile for the server, then opens a key on it.
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await page.goto(`${serve.url}/#/connections`);
    const profileName = `keys-ana-${redis.port}`;
    await new ConnectionsPage(page).add({ name: profileName, host: redis.host, port: String(redis.port) });
    await new AppShell(page).selectProfile(profileName);
    const profileId = await page.getByLabel('Profile', { exact: true }).inputValue();
    const link = `${serve.url}/#/keys?profile=${profileId}&key=${keyParam('user:1')}`;
    await page.goto(link);
    const opsKeys = new KeysPage(page);
    await opsKeys.expectOpen('user:1');
    await expect(opsKeys.openColumn()).toHaveAttribute('data-can-edit', 'true');
    await expect(page.getByTestId('keys-new')).toBeVisible();

    const context = await browser.newContext();
    try {
      const anaPage = await context.newPage();
      await new AppShell(anaPage).signIn(serve.url, ANALYST.name, ANALYST.password);
      await anaPage.goto(link);
      const keys = new KeysPage(anaPage);
      await keys.expectOpen('user:1');
      await expect(keys.openColumn()).toHaveAttribute('data-can-edit', 'false');
      await expect(anaPage.getByTestId('keys-new')).toHaveCount(0);
      await keys.waitForCompleteTree();
      await expect(keys.folderCount('user:')).not.toHaveText('');
      // Nothing in the page offers a write.
      await expect(anaPage.getByRole('button', { name: /delete|rename|save|edit|set ttl|add|create/i })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});
