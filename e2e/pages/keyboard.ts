import { expect, type Locator, type Page } from '@playwright/test';

/** Whether `target` holds the keyboard focus. */
export function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement);
}

/**
 * Presses Tab (Shift+Tab when `back`) until `target` has the focus, as a keyboard user would reach it; fails
 * after `max` presses (it is not in the tab order, or is far behind other stops).
 */
export async function tabTo(page: Page, target: Locator, max = 60, back = false): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await isFocused(target)) return i;
  }
  throw new Error(`${String(target)} not reached in ${max} presses of Tab`);
}

/** What has the focus: tag, id, class and the start of its text, for messages. */
export function focusedSummary(page: Page): Promise<string> {
  return page.evaluate(() => {
    const e = document.activeElement;
    if (e === null) return 'nothing';
    return `${e.tagName.toLowerCase()}#${e.id}.${e.getAttribute('class') ?? ''} "${(e.textContent ?? '').slice(0, 40)}"`;
  });
}

export async function expectFocused(target: Locator): Promise<void> {
  await expect.poll(() => isFocused(target)).toBe(true);
}
