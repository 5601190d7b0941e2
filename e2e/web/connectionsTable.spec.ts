import type { Locator } from '@playwright/test';
import { box } from '../pages/boxes';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { expect, test } from '../redisFixture';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

/** The horizontal extent of a box: [left, right]. */
async function span(el: Locator): Promise<[number, number]> {
  const b = await box(el);
  return [b.x, b.x + b.width];
}

function overlaps(a: [number, number], b: [number, number]): boolean {
  return a[0] < b[1] && b[0] < a[1];
}

/**
 * The Connections table is one grid for its head and rows (subgrids): a row whose main line
 * did not span the grid stacked every cell in the first column, under a head over empty space.
 */
test.describe('Connections table', () => {
  test('each head sits over its own cells and a row lays its cells side by side, at every size and theme', async ({ page, redis }, testInfo) => {
    const conns = new ConnectionsPage(page);
    const name = await conns.addServer('table', redis);
    const row = conns.row(name);
    const head = page.locator('.profile-table .list-head');
    for (const size of SIZES) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: testInfo.outputPath(`connections-${size.width}-${scheme}.png`) });
        const cols = ['col-name', 'col-addr', 'col-user', 'col-tls', 'col-source'];
        const cells = await Promise.all(cols.map((c) => span(row.locator(`.row-main > .${c}`))));
        const heads = await Promise.all(cols.map((c) => span(head.locator(`.${c}`))));
        const tops = await Promise.all(cols.map(async (c) => (await box(row.locator(`.row-main > .${c}`))).y));
        cols.forEach((c, i) => {
          expect(overlaps(heads[i]!, cells[i]!), `${c} head ${String(heads[i])} is not over its cell ${String(cells[i])} (${size.width}, ${scheme})`).toBe(
            true,
          );
          // Side by side: each cell starts where the one before ends, all on one line.
          if (i > 0) expect(cells[i]![0], `${c} is not right of ${cols[i - 1]} (${size.width}, ${scheme})`).toBeGreaterThanOrEqual(cells[i - 1]![1] - 1);
          expect(Math.abs(tops[i]! - tops[0]!), `${c} is on another line (${size.width}, ${scheme})`).toBeLessThan(20);
        });
      }
    }
    await page.emulateMedia({ colorScheme: null });
  });
});
