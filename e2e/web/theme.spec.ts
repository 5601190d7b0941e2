import { readContrasts, type Probe } from '../pages/contrast';
import { openRoute } from '../pages/openRoute';
import type { Page } from '@playwright/test';
import { expect, test } from '../appFixture';

/** The Overview with its charts drawn (the suite's own embedded server feeds them). */
async function overviewWithCharts(page: Page): Promise<void> {
  await openRoute(page, 'overview');
  await expect(page.getByTestId('chart-memory').locator('.recharts-line path').first()).toBeVisible({ timeout: 15_000 });
}

/** Body text, secondary text, the sidebar and every chart's axis labels, grid and lines, read in the page as drawn. */
async function expectReadable(page: Page): Promise<void> {
  const text: Probe[] = [
    { what: 'page title', css: '.topbar h1' },
    { what: 'node card figure', css: '.ov-card' },
    { what: 'stat label', css: '.stat dt' },
    { what: 'stat sub (muted)', css: '.stat-sub' },
    { what: 'muted note', css: 'main .muted' },
    { what: 'sidebar link', css: 'nav[aria-label="Main"] a' },
  ];
  for (const c of await readContrasts(page, text)) expect(c.contrast, `${c.what}: ${c.fg} on ${c.bg}`).toBeGreaterThanOrEqual(4.5);
  const charts = await page
    .locator('.ov-chart')
    .evaluateAll((els) => els.filter((e) => e.querySelector('.recharts-line') !== null).map((e) => e.getAttribute('data-testid') ?? ''));
  expect(charts.length).toBeGreaterThan(0);
  for (const id of charts) {
    const at = `[data-testid="${id}"]`;
    const [tick, axis, grid, ...lines] = await readContrasts(page, [
      { what: `${id} axis label`, css: `${at} .recharts-cartesian-axis-tick-value`, prop: 'fill' },
      { what: `${id} axis line`, css: `${at} .recharts-cartesian-axis-line`, prop: 'stroke' },
      { what: `${id} grid`, css: `${at} .recharts-cartesian-grid line`, prop: 'stroke' },
      { what: `${id} series`, css: `${at} .recharts-line path.recharts-curve`, prop: 'stroke', all: true },
    ]);
    expect(tick!.contrast, `${tick!.what}: ${tick!.fg} on ${tick!.bg}`).toBeGreaterThanOrEqual(4.5);
    expect(axis!.contrast, `${axis!.what}: ${axis!.fg} on ${axis!.bg}`).toBeGreaterThanOrEqual(3);
    // The grid is faint on purpose, but there.
    expect(grid!.contrast, `${grid!.what}: ${grid!.fg} on ${grid!.bg}`).toBeGreaterThan(1.1);
    for (const l of lines) expect(l.contrast, `${l.what}: ${l.fg} on ${l.bg}`).toBeGreaterThanOrEqual(3);
  }
}

/** The page's own background: dark or light. */
async function backgroundLuminance(page: Page): Promise<number> {
  const [main] = await readContrasts(page, [{ what: 'main', css: 'main' }]);
  return main!.bgLuminance;
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
