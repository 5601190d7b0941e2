import { visibleText } from '../pages/boxes';
import { KeysPage } from '../pages/KeysPage';
import { expect, test } from '../redisFixture';

/** Names as caches make them: one long shared prefix, the part that differs at the end. */
const PREFIX = 'cache:product:eu-west-1:catalogue:pricing:variants:by-sku:';
const names = (n: number) => Array.from({ length: n }, (_, i) => `${PREFIX}${String(i + 1).padStart(7, '0')}`);

/**
 * At 1280 px the list's name column is narrow: names cut at the end all read as the shared
 * prefix. They are cut in the middle instead, so each row shows its own end.
 */
test.describe('Key names in a narrow column', () => {
  test('rows sharing a long prefix read differently at 1280 px and show their tail; so does the open key title', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(60_000);
    const all = names(12 + (redis.port % 9));
    await admin.mset(...all.flatMap((k) => [k, 'v']));
    await page.setViewportSize({ width: 1280, height: 800 });
    const keys = new KeysPage(page);
    await keys.openOn('names', redis);
    await keys.waitForCompleteTree();
    // Only these keys are in the DB: the list of every key is theirs.
    expect(await keys.listedCount()).toBe(all.length);

    const seen: string[] = [];
    for (const name of all) {
      const row = keys.row(name);
      const cell = row.locator('.keys-name');
      // Hover shows the whole name, and the row's accessible name holds it whole.
      await expect(cell).toHaveAttribute('title', name);
      await expect(row).toHaveAccessibleName(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      const shown = await visibleText(cell);
      expect(shown.length, `"${name}" is shown whole at 1280 px: the test needs a cut name`).toBeLessThan(name.length);
      expect(shown, `the row of ${name} hides its end`).toContain(name.slice(-8));
      seen.push(shown);
    }
    expect(new Set(seen).size, `rows read alike: ${seen.join(' | ')}`).toBe(all.length);

    const last = all.at(-1)!;
    await keys.row(last).click();
    await keys.expectOpen(last);
    const title = page.locator('.kv-key');
    await expect(title).toHaveAttribute('title', last);
    await expect(title).toHaveText(last);
    expect(await visibleText(title), 'the open key title hides its end').toContain(last.slice(-8));

    for (const size of [
      { width: 1280, height: 800 },
      { width: 1920, height: 1080 },
    ]) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: testInfo.outputPath(`keys-names-${size.width}-${scheme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: null });
  });

  test('at 1920 px a name the column holds is shown whole, in the list and the title, not cut by a pixel', async ({ page, redis, admin }) => {
    test.setTimeout(60_000);
    const all = Array.from({ length: 8 + (redis.port % 5) }, (_, i) => `cache:product:eu:${String(i + 40).padStart(7, '0')}`);
    await admin.mset(...all.flatMap((k) => [k, 'v']));
    await page.setViewportSize({ width: 1920, height: 1080 });
    const keys = new KeysPage(page);
    await keys.openOn('wide', redis);
    await keys.waitForCompleteTree();
    for (const name of all) expect(await visibleText(keys.row(name).locator('.keys-name')), `${name} is cut in a wide column`).toBe(name);
    const last = all.at(-1)!;
    await keys.row(last).click();
    await keys.expectOpen(last);
    expect(await visibleText(page.locator('.kv-key')), 'the open key title is cut with room to spare').toBe(last);
  });
});
