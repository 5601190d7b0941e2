import type { Page } from '@playwright/test';
import type { Redis } from 'ioredis';
import { KeyValuePanel } from '../pages/KeyValuePanel';
import { expect, test } from '../redisFixture';

/** 200,000 fields: every 50th is `vip:<i>`. */
const N = 200_000;
const nameOf = (i: number) => (i % 50 === 0 ? `vip:${i}` : `f:${i}`);

async function seedBig(admin: Redis): Promise<void> {
  const p = admin.pipeline();
  for (let at = 0; at < N; at += 10_000) {
    p.hset('big:hash', ...Array.from({ length: 10_000 }, (_, j) => [nameOf(at + j), `value ${at + j}`]).flat());
  }
  await p.exec();
}

/** A key of each type, with long names and values that would push a careless layout sideways. */
async function seedTypes(admin: Redis): Promise<void> {
  const long = 'a-very-long-unbroken-value-'.repeat(30);
  const p = admin.pipeline();
  p.set('t:string', long);
  p.hset('t:hash', 'name', 'ann', 'long', long, long, 'x');
  p.rpush('t:list', 'one', long);
  p.sadd('t:set', 'red', long);
  p.zadd('t:zset', 1, 'alice', 2, long);
  p.xadd('t:stream', '1-1', 'type', 'login', 'body', long);
  await p.exec();
}

/** The value pane does not scroll sideways, and the Find button (where the type has one) is wholly in the viewport. */
async function expectFits(page: Page, what: string): Promise<void> {
  const pane = page.getByTestId('keys-open');
  const sizes = await pane.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(sizes.scroll, `${what}: the value pane scrolls sideways`).toBeLessThanOrEqual(sizes.client);
  const docWidth = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(docWidth, `${what}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  const find = page.getByTestId('kv-find');
  if ((await find.count()) === 0) return;
  const box = await find.boundingBox();
  const viewport = page.viewportSize();
  expect(box, `${what}: no Find button`).not.toBeNull();
  if (box === null || viewport === null) return;
  expect(box.x, `${what}: Find starts left of the viewport`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: Find is cut at the right`).toBeLessThanOrEqual(viewport.width);
  // Nothing covers it: the button itself is what a click at its middle reaches.
  const hit = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x as number, y as number)?.closest('[data-testid="kv-find"]') !== null,
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(hit, `${what}: Find is covered`).toBe(true);
  const paneBox = await pane.boundingBox();
  if (paneBox !== null) expect(box.x + box.width, `${what}: Find is outside the value pane`).toBeLessThanOrEqual(paneBox.x + paneBox.width + 0.5);
}

test.describe('Finding in a big value', () => {
  test('an exact field opens at once; a glob shows progress, then its matches and how many more', async ({ page, admin, redis }) => {
    test.setTimeout(120_000);
    await seedBig(admin);
    const panel = new KeyValuePanel(page);
    await panel.useServer('find', redis);
    await panel.open('big:hash');
    await expect(panel.meta('length')).toHaveText('200,000');

    await panel.fill('kv-match', 'f:123457');
    await panel.click('kv-find');
    await expect(panel.testId('kv-find-result')).toHaveText('The field of that exact name');
    await expect(panel.rows()).toHaveCount(1);
    await expect(panel.row('f:123457')).toContainText('value 123457');

    await panel.fill('kv-match', 'vip:*3*0');
    await panel.click('kv-find');
    // The walk is paced: progress (elements read of HLEN, found so far) and Stop show while it goes.
    await expect(panel.testId('kv-find-progress')).toBeVisible();
    await expect(panel.testId('kv-find-counts')).toContainText('of 200,000 fields read');
    await expect(panel.testId('kv-find-stop')).toBeVisible();
    await page.screenshot({ path: '/tmp/valuefind/find-progress.png' });
    const expected = Array.from({ length: N }, (_, i) => nameOf(i)).filter((n) => n.startsWith('vip:') && n.slice(4).includes('3')).length;
    await expect(panel.testId('kv-find-result')).toHaveText(`${expected.toLocaleString('en-US')} fields matching, of 200,000 · all read`, { timeout: 60_000 });
    await expect(panel.testId('kv-find-more')).toHaveText(`${(expected - 100).toLocaleString('en-US')} more not shown: narrow the glob`);
    await expect(panel.rows().first()).toContainText(/vip:\d*3\d*0/);
    await page.screenshot({ path: '/tmp/valuefind/find-done.png' });
    // With "Show all" beside Find, the bar still fits the pane.
    await expectFits(page, 'a hash showing a find');
    await expect(panel.testId('kv-find-clear')).toBeInViewport({ ratio: 1 });

    // Stop keeps what was found and says how far it read.
    await panel.fill('kv-match', '*9');
    await panel.click('kv-find');
    await expect(panel.testId('kv-find-stop')).toBeVisible();
    await panel.click('kv-find-stop');
    await expect(panel.testId('kv-find-result')).toContainText('stopped after');

    await panel.click('kv-find-clear');
    await expect(panel.shown()).toContainText('of 200,000');
  });

  for (const size of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    for (const scheme of ['light', 'dark'] as const) {
      test.describe(`${size.width}×${size.height} ${scheme}`, () => {
        test.use({ viewport: size, colorScheme: scheme });
        test('every value view fits its pane: no sideways scroll, Find wholly in view', async ({ page, admin, redis }) => {
          test.setTimeout(90_000);
          await seedTypes(admin);
          const panel = new KeyValuePanel(page);
          await panel.useServer('fit', redis);
          for (const type of ['hash', 'set', 'zset', 'list', 'stream', 'string']) {
            await panel.open(`t:${type}`);
            await expect(panel.meta('type')).toHaveText(type);
            await expect(page.getByTestId(`kv-${type}`)).toBeVisible();
            await expectFits(page, `${type} at ${size.width}×${size.height} ${scheme}`);
            await page.screenshot({ path: `/tmp/valuefind/${type}-${size.width}-${scheme}.png` });
          }
        });
      });
    }
  }
});
