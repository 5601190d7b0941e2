import type { Locator, Page } from '@playwright/test';
import { expectFocused, tabTo } from '../pages/keyboard';
import { KeysPage } from '../pages/KeysPage';
import { KeyValuePanel } from '../pages/KeyValuePanel';
import { expect, test } from '../redisFixture';

/** The Edit button of the row showing `text`. */
function editOf(panel: KeyValuePanel, text: string): Locator {
  return panel.row(text).getByRole('button', { name: 'Edit' });
}

/** Tab to the row's Edit, Enter: the form's first field has the focus. */
async function openEdit(page: Page, panel: KeyValuePanel, text: string, field: string): Promise<void> {
  await tabTo(page, editOf(panel, text), 60);
  await page.keyboard.press('Enter');
  await expectFocused(panel.testId(field));
}

test.describe('Keyboard: value edits and the Keys page order', () => {
  test('Edit moves the focus into its form; Escape, Cancel and Save bring it back to that Edit', async ({ page, redis, admin }) => {
    test.setTimeout(90_000);
    await admin.hset('kb:hash', 'alpha', '1', 'beta', '2');
    await admin.rpush('kb:list', 'one', 'two');
    await admin.zadd('kb:zset', 1, 'ann', 2, 'bob');
    const panel = new KeyValuePanel(page);
    await panel.useServer('kbedit', redis);

    await panel.open('kb:hash');
    await expect(panel.row('beta')).toBeVisible();
    await openEdit(page, panel, 'beta', 'kv-hash-field');
    await expect(panel.testId('kv-hash-value')).toHaveValue('2');
    await page.keyboard.press('Escape');
    await expectFocused(editOf(panel, 'beta'));
    // Save from the keyboard: Enter in the form; the rows read again and the focus returns to the same row's Edit.
    await page.keyboard.press('Enter');
    await expectFocused(panel.testId('kv-hash-field'));
    await panel.testId('kv-hash-value').fill('22');
    await panel.testId('kv-hash-value').press('Enter');
    await expect.poll(() => admin.hget('kb:hash', 'beta')).toBe('22');
    await expectFocused(editOf(panel, 'beta'));

    await panel.open('kb:list');
    await expect(panel.row('two')).toBeVisible();
    await openEdit(page, panel, 'two', 'kv-list-value');
    await tabTo(page, panel.testId('kv-list-cancel'), 5);
    await page.keyboard.press('Enter');
    await expectFocused(editOf(panel, 'two'));

    await panel.open('kb:zset');
    await expect(panel.row('bob')).toBeVisible();
    await openEdit(page, panel, 'bob', 'kv-zset-member');
    await expect(panel.testId('kv-zset-score')).toHaveValue('2');
    await page.keyboard.press('Escape');
    await expectFocused(editOf(panel, 'bob'));
  });

  test('the tree comes before its folder’s bulk actions in the tab order', async ({ page, redis, admin }) => {
    test.setTimeout(90_000);
    await admin.mset('user:1', 'a', 'user:2', 'b', 'other', 'c');
    const keys = new KeysPage(page);
    await keys.openOn('kborder', redis);
    await keys.waitForCompleteTree();
    await keys.openFolder('user:');
    const firstAction = page.getByTestId('ka-folder-delete');
    await expect(firstAction).toBeVisible();
    // From the top of the content, Tab reaches the tree before any act on the whole folder.
    await page.locator('main').focus();
    const tree = keys.tree();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const [inTree, onAction] = await Promise.all([
        tree.evaluate((el) => el === document.activeElement),
        page.evaluate(() => document.activeElement?.closest('.ka-bar-tree') !== null && document.activeElement?.closest('.ka-bar-tree') !== undefined),
      ]);
      expect(onAction, 'a bulk action came before the tree').toBe(false);
      if (inTree) break;
    }
    await expectFocused(tree);
    await page.keyboard.press('Tab');
    await expectFocused(firstAction);
  });
});
