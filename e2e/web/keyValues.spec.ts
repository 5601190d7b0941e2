import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Redis } from 'ioredis';
import { addUser } from '../../main/server/auth/users';
import { AppShell } from '../pages/AppShell';
import { KeyValuePanel } from '../pages/KeyValuePanel';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=1</script>';
/** `bin:` 0xff CR LF: not UTF-8, and a line break inside a key name. */
const BINARY_KEY = Buffer.from([0x62, 0x69, 0x6e, 0x3a, 0xff, 0x0d, 0x0a]);
const BINARY_TEXT = 'bin:\\xff\\r\\n';

/** A value of each type, with an element long enough to be cut and hostile text in places. */
async function seed(admin: Redis, seedNo: number): Promise<void> {
  const p = admin.pipeline();
  p.set('str:json', JSON.stringify({ user: { id: seedNo, tags: ['a', 'b'], html: SCRIPT }, n: null }));
  p.hset('h:user', { name: `ann-${seedNo}`, city: 'Oslo', bio: IMG, long: 'x'.repeat(20_000) });
  for (let i = 0; i < 250; i++) p.hset('h:big', `f:${String(i).padStart(3, '0')}`, `v${i}`);
  p.rpush('l:jobs', ...Array.from({ length: 230 }, (_, i) => `job-${i}`));
  p.sadd('s:tags', 'red', 'green', SCRIPT);
  p.zadd('z:scores', 10, 'alice', 20, 'bob', 5.5, 'carol', 30, IMG);
  p.xadd('x:events', '1-1', 'type', 'login', 'user', 'ann');
  p.xadd('x:events', '2-1', 'type', 'logout', 'user', 'bob', 'why', IMG);
  p.set(BINARY_KEY, 'bytes');
  p.set(IMG, SCRIPT);
  await p.exec();
  await admin.xgroup('CREATE', 'x:events', 'workers', '0');
  await admin.xreadgroup('GROUP', 'workers', 'w1', 'COUNT', '1', 'STREAMS', 'x:events', '>');
}

/** The longest main-thread task (PerformanceObserver 'longtask') since the last reset, in ms. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}
const longest = (page: Page) => page.evaluate(() => (window as unknown as { __longest: number }).__longest);
const resetLongest = (page: Page) => page.evaluate(() => void ((window as unknown as { __longest: number }).__longest = 0));

test.describe('Keys value panel', () => {
  test('every type opens with its metadata and paged views; hostile values show as text', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(90_000);
    await seed(admin, redis.port);
    const panel = new KeyValuePanel(page);
    await panel.useServer('kv', redis);

    await panel.open('str:json');
    await expect(panel.meta('type')).toHaveText('string');
    await expect(panel.meta('length')).toHaveText(String(await admin.strlen('str:json')));
    await expect(panel.text()).toContainText(SCRIPT);
    await panel.view('JSON');
    await expect(panel.json()).toContainText('{2 keys}');
    await panel.json().getByRole('button', { name: '▸' }).first().click();
    await expect(panel.json()).toContainText('"tags": ');
    await panel.view('Hex');
    await expect(panel.hex()).toContainText('00000000');

    await panel.open('h:user');
    await expect(panel.meta('type')).toHaveText('hash');
    await expect(panel.meta('length')).toHaveText('4');
    await expect(panel.row('bio')).toContainText(IMG);
    // A 20,000-byte value is cut, with its full length beside it.
    await expect(panel.row('long')).toContainText('19.5 KiB');
    await page.screenshot({ path: testInfo.outputPath('hash.png'), fullPage: true });

    await panel.open('h:big');
    await expect(panel.shown()).toContainText('of 250');
    await panel.root().getByTestId('kv-match').fill('f:24*');
    await panel.root().getByTestId('kv-match').press('Enter');
    await expect(panel.row('f:249')).toContainText('v249');

    await panel.open('l:jobs');
    await expect(panel.shown()).toHaveText(/^200 items shown of 230/);
    await panel.loadMore();
    await expect(panel.shown()).toContainText('230 items shown of 230');
    await panel.testId('kv-list-end').getByRole('button', { name: 'From the tail' }).click();
    await expect(panel.rows().first()).toContainText('job-229');

    await panel.open('s:tags');
    await expect(panel.meta('length')).toHaveText('3');
    await expect(panel.row(SCRIPT)).toHaveCount(1);

    await panel.open('z:scores');
    await expect(panel.rows().first()).toContainText('carol');
    await expect(panel.rows().first()).toContainText('5.5');
    await panel.testId('kv-zset-rev').check();
    await expect(panel.rows().first()).toContainText(IMG);
    await panel.testId('kv-zset-by').getByRole('button', { name: 'By score' }).click();
    await panel.fill('kv-zset-min', '10');
    await panel.fill('kv-zset-max', '(30');
    await panel.click('kv-zset-range');
    await expect(panel.rows()).toHaveCount(2);
    await page.screenshot({ path: testInfo.outputPath('zset.png'), fullPage: true });

    await panel.open('x:events');
    await expect(panel.meta('type')).toHaveText('stream');
    await expect(panel.rows().first()).toContainText('2-1');
    await expect(panel.row('2-1')).toContainText(IMG);
    await expect(panel.testId('kv-stream-group')).toContainText('workers');
    await expect(panel.testId('kv-stream-pending')).toContainText('1-1');

    await panel.open(BINARY_KEY);
    await expect(panel.root().locator('.kv-key')).toHaveText(BINARY_TEXT);
    await panel.open(IMG);
    await expect(panel.root().locator('.kv-key')).toHaveText(IMG);
    await expect(panel.text()).toContainText(SCRIPT);

    await panel.open('no:such:key');
    await expect(panel.missing()).toContainText('No such key');

    await expect(page.locator('img, script:not([src])')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  });

  test('a 256 KB string: hex view stays virtualized; the longest main-thread task is printed', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(60_000);
    const big = Buffer.alloc(600 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
    await admin.set('big:blob', big);
    await watchLongTasks(page);
    const panel = new KeyValuePanel(page);
    await panel.useServer('kvbig', redis);
    await resetLongest(page);
    await panel.open('big:blob');
    await expect(panel.testId('kv-string-loaded')).toHaveText('256 KiB of 600 KiB loaded');
    await panel.view('Hex');
    await expect(panel.hex()).toContainText('00000000');
    // 16,384 lines of dump, a few dozen in the DOM.
    expect(await panel.hex().locator('.kv-row').count()).toBeLessThan(80);
    await panel.hex().evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(panel.hex()).toContainText('0003fff0');
    await page.waitForTimeout(300);
    const hexTask = await longest(page);
    await resetLongest(page);
    await panel.loadMore();
    await expect(panel.testId('kv-string-loaded')).toHaveText('512 KiB of 600 KiB loaded');
    await panel.view('Text');
    await expect(panel.text()).toBeVisible();
    await page.waitForTimeout(300);
    const textTask = await longest(page);
    // Chromium reports only tasks over 50 ms: 0 means none was that long.
    const said = (ms: number) => (ms === 0 ? 'none over 50 ms' : `${ms.toFixed(0)} ms`);
    console.log(`[keys-value] longest main-thread task: open a 256 KB string + hex view: ${said(hexTask)}; load 256 KB more + text view: ${said(textTask)}`);
    await panel.view('Hex');
    await page.screenshot({ path: testInfo.outputPath('string-hex.png'), fullPage: true });
    expect(hexTask).toBeLessThan(100);
  });
});

test.describe('Keys value panel for an analyst', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const PASSWORD = 'e2e-analyst-kv-8f2a';
  let serve: ServeProcess;

  test.beforeEach(async ({ redis, admin }) => {
    await seed(admin, redis.port);
    serve = await startServe({ REDIS_URL: redis.url }, (dir) => addUser(join(dir, 'users.json'), 'ana', 'analyst', PASSWORD));
  });
  test.afterEach(async () => {
    await serve.stop();
  });

  test('sees every value and no edit control', async ({ page, redis }) => {
    await new AppShell(page).signIn(serve.url, 'ana', PASSWORD);
    const panel = new KeyValuePanel(page);
    await panel.useProfile(`REDIS_URL (${redis.host}:${redis.port})`);
    for (const key of ['str:json', 'h:user', 'l:jobs', 's:tags', 'z:scores', 'x:events']) {
      await panel.open(key, serve.url);
      await expect(panel.meta('type')).not.toHaveText('—');
      await expect(panel.rows().or(panel.text()).first()).toBeVisible();
      await expect(panel.editControls()).toHaveCount(0);
    }
  });
});
