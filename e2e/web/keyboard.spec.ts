import type { Redis } from 'ioredis';
import { KeyActionsPanel } from '../pages/KeyActionsPanel';
import { expectFocused, focusedSummary, isFocused, tabTo } from '../pages/keyboard';
import { KeysPage } from '../pages/KeysPage';
import { openRoute } from '../pages/openRoute';
import { expect, test } from '../redisFixture';

/** Folders with keys in them and two keys at the top level: enough to walk the tree in every direction. */
async function seed(admin: Redis): Promise<void> {
  const p = admin.pipeline();
  for (let i = 0; i < 12; i++) p.set(`user:${i}`, `name ${i}`);
  for (let i = 0; i < 5; i++) p.hset(`order:${i}`, 'total', String(i * 10));
  p.set('lonely', 'one');
  await p.exec();
}

test.describe('Keyboard only', () => {
  test('the first Tab offers a skip link; Enter on it moves past the navigation to the content', async ({ page }) => {
    await openRoute(page, 'overview');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expectFocused(skip);
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expectFocused(page.locator('main'));
    // The route is unchanged (the hash names pages), and the next stop is inside the content, not the sidebar.
    expect(new URL(page.url()).hash).toBe('#/overview');
    // The content must hold a control by then (the page's range buttons come with its first poll);
    // before that the next Tab has nothing inside <main> to land on and wraps round to the skip link.
    await expect(page.locator('main').getByRole('button').first()).toBeVisible({ timeout: 15_000 });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement) ?? false), await focusedSummary(page)).toBe(true);
  });

  test('the Overview charts are no tab stops and focus opens no tooltip', async ({ page }) => {
    await openRoute(page, 'overview');
    const charts = page.locator('.ov-chart');
    await expect(charts.first().locator('.recharts-line').first()).toBeVisible({ timeout: 15_000 });
    // Every chart is a figure named by its caption.
    for (const chart of await charts.all()) await expect(chart).toHaveAttribute('aria-label', /\S/);
    // Tab through the whole page, back round to the skip link.
    const seen: string[] = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      const inChart = await page.evaluate(
        () => document.activeElement?.closest('.recharts-wrapper') !== null && document.activeElement?.closest('.recharts-wrapper') !== undefined,
      );
      const summary = await focusedSummary(page);
      seen.push(summary);
      expect(inChart, `a chart took the focus: ${summary}`).toBe(false);
      await expect(page.locator('.recharts-tooltip-wrapper[style*="visibility: visible"]')).toHaveCount(0);
      if (i > 3 && (await isFocused(page.getByRole('link', { name: 'Skip to content' })))) break;
    }
    expect(seen.length).toBeGreaterThan(5);
  });

  test('the Keys page from the keyboard: tree, list, a key’s value, the bulk actions dialog', async ({ page, redis, admin }) => {
    await seed(admin);
    const keys = new KeysPage(page);
    await keys.openOn('kbd', redis);
    await keys.waitForCompleteTree();

    // The tree is one tab stop; the arrows walk it (folders sorted by name: order:, user:, then the key lonely).
    const tree = keys.tree();
    await tabTo(page, tree);
    await expect(tree).toHaveAttribute('aria-activedescendant', /\S/);
    const activeRow = async () => {
      const id = await tree.getAttribute('aria-activedescendant');
      return page.locator(`[id="${id ?? ''}"]`);
    };
    await expect(await activeRow()).toHaveAttribute('data-prefix', 'order:');
    await page.keyboard.press('ArrowDown');
    await expect(await activeRow()).toHaveAttribute('data-prefix', 'user:');
    // Right opens the folder, Right again steps into it, Left goes back up to it, Left again closes it.
    await page.keyboard.press('ArrowRight');
    await expect(keys.folder('user:')).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(await activeRow()).toHaveAttribute('data-testid', 'keys-tree-key');
    await page.keyboard.press('ArrowLeft');
    await expect(await activeRow()).toHaveAttribute('data-prefix', 'user:');
    await page.keyboard.press('ArrowLeft');
    await expect(keys.folder('user:')).toHaveAttribute('aria-expanded', 'false');
    // Enter on the folder lists its keys, as a click on its name does.
    await page.keyboard.press('Enter');
    await expect(keys.matchBox()).toHaveValue('user:*');
    expect(await keys.listedCount()).toBe(12);
    // End reaches the last row, a top-level key; Enter opens it.
    await page.keyboard.press('End');
    await expect(await activeRow()).toHaveAttribute('data-testid', 'keys-tree-key');
    await page.keyboard.press('Enter');
    await keys.expectOpen('lonely');

    // Home goes back to the first folder; Enter lists its keys. The list is the next tab stop past the find bar.
    await page.keyboard.press('Home');
    await expect(await activeRow()).toHaveAttribute('data-prefix', 'order:');
    await page.keyboard.press('Enter');
    expect(await keys.listedCount()).toBe(5);
    const list = keys.list();
    await tabTo(page, list, 30);
    await page.keyboard.press('ArrowDown');
    const second = page.locator(`[id="${(await list.getAttribute('aria-activedescendant')) ?? ''}"]`);
    const secondKey = Buffer.from((await second.getAttribute('data-key')) ?? '', 'base64').toString();
    expect(secondKey).toMatch(/^order:\d$/);
    await page.keyboard.press('Enter');
    await keys.expectOpen(secondKey);

    // The value panel is next in the tab order: its hash field is reached and readable.
    const value = page.getByTestId('keys-value');
    await expect(value).toContainText('total');
    const firstControl = value.locator('button, input, select, textarea, a[href]').first();
    await tabTo(page, firstControl, 40);

    // The bulk actions on the folder, under the tree: back there by Shift+Tab, opened by Enter, focus inside, Escape closes it.
    const ka = new KeyActionsPanel(page);
    const del = page.getByTestId('ka-folder-delete');
    await tabTo(page, del, 60, true);
    await page.keyboard.press('Enter');
    await expect(ka.dialog()).toBeVisible();
    const inDialog = () => page.evaluate(() => document.querySelector('[data-testid="ka-dialog"]')?.contains(document.activeElement) ?? false);
    expect(await inDialog(), await focusedSummary(page)).toBe(true);
    await expect(ka.pattern()).toContainText('order:*');
    await tabTo(page, ka.dialog().getByTestId('ka-dry-run'), 30);
    expect(await inDialog()).toBe(true);
    await page.keyboard.press('Enter');
    await ka.expectStep('confirm');
    await page.keyboard.press('Escape');
    await expect(ka.dialog()).toBeHidden();
    // Focus goes back where it was, and nothing was deleted: only a dry run ran.
    await expectFocused(del);
    expect(await admin.dbsize()).toBe(18);
  });
});
