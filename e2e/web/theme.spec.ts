import { contrastOf } from '../pages/contrast';
import { openRoute } from '../pages/openRoute';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../appFixture';

/** The Overview with its charts drawn (the suite's own embedded server feeds them). */
async function overviewWithCharts(page: Page): Promise<void> {
  await openRoute(page, 'overview');
  await expect(page.getByTestId('chart-memory').locator('.recharts-line path').first()).toBeVisible({ timeout: 15_000 });
}

/** Body text, secondary text, the sidebar and every chart's axis labels, grid and lines, read in the page as drawn. */
async function expectReadable(page: Page): Promise<void> {
  const text: [string, Locator][] = [
    ['page title', page.locator('.topbar h1')],
    ['node card figure', page.locator('.ov-card').first()],
    ['stat label', page.locator('.stat dt').first()],
    ['stat sub (muted)', page.locator('.stat-sub').first()],
    ['muted note', page.locator('main .muted').first()],
    ['sidebar link', page.getByRole('navigation', { name: 'Main' }).getByRole('link').first()],
  ];
  for (const [what, el] of text) {
    const c = await contrastOf(el);
    expect(c.contrast, `${what}: ${c.fg} on ${c.bg}`).toBeGreaterThanOrEqual(4.5);
  }
  for (const chart of await page.locator('.ov-chart').all()) {
    const name = await chart.getAttribute('aria-label');
    if ((await chart.locator('.recharts-line').count()) === 0) continue;
    const tick = await contrastOf(chart.locator('.recharts-cartesian-axis-tick-value').first(), 'fill');
    expect(tick.contrast, `${name} axis label: ${tick.fg} on ${tick.bg}`).toBeGreaterThanOrEqual(4.5);
    const axis = await contrastOf(chart.locator('.recharts-cartesian-axis-line').first(), 'stroke');
    expect(axis.contrast, `${name} axis line: ${axis.fg} on ${axis.bg}`).toBeGreaterThanOrEqual(3);
    // The grid is faint on purpose, but there.
    const grid = await contrastOf(chart.locator('.recharts-cartesian-grid line').first(), 'stroke');
    expect(grid.contrast, `${name} grid: ${grid.fg} on ${grid.bg}`).toBeGreaterThan(1.1);
    for (const line of await chart.locator('.recharts-line path.recharts-curve').all()) {
      const l = await contrastOf(line, 'stroke');
      expect(l.contrast, `${name} series: ${l.fg} on ${l.bg}`).toBeGreaterThanOrEqual(3);
    }
  }
}

/** The page's own background: dark or light. */
async function backgroundLuminance(page: Page): Promise<number> {
  return (await contrastOf(page.locator('main'))).bgLuminance;
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`the system asks for ${scheme}`, () => {
    test.use({ colorScheme: scheme });

    test(`the app follows it: ${scheme} background, body text and every chart readable (WCAG 4.5:1 text, 3:1 lines)`, async ({ page }, testInfo) => {
      await overviewWithCharts(page);
      const bg = await backgroundLuminance(page);
      if (scheme === 'dark') expect(bg).toBeLessThan(0.05);
      else expect(bg).toBeGreaterThan(0.8);
      await expectReadable(page);
      await page.screenshot({ path: testInfo.outputPath(`overview-${scheme}.png`), fullPage: true });
    });
  });
}

test.describe('the theme switch', () => {
  test.use({ colorScheme: 'dark' });

  test('pins light or dark over the system setting, survives a reload, and System hands it back', async ({ page }) => {
    await overviewWithCharts(page);
    const theme = page.getByLabel('Theme');
    await expect(theme).toHaveValue('system');
    expect(await backgroundLuminance(page)).toBeLessThan(0.05);

    await theme.selectOption('light');
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.8);
    await expectReadable(page);

    await page.reload();
    await expect(page.getByLabel('Theme')).toHaveValue('light');
    await expect(page.getByTestId('chart-memory').locator('.recharts-line path').first()).toBeVisible({ timeout: 15_000 });
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.8);

    await page.getByLabel('Theme').selectOption('system');
    expect(await backgroundLuminance(page)).toBeLessThan(0.05);
    await page.getByLabel('Theme').selectOption('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // Pinned dark holds when the system turns light.
    expect(await backgroundLuminance(page)).toBeLessThan(0.05);
    await expectReadable(page);
  });
});
