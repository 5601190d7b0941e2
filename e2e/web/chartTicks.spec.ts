import { isNiceStep, readTick, tickLabels } from '../pages/chartTicks';
import { openRoute } from '../pages/openRoute';
import { expect, test } from '../appFixture';

test.describe('Chart axes', () => {
  test('every Overview chart labels its axes once each, in even 1-2-5 steps of one unit', async ({ page }) => {
    await openRoute(page, 'overview');
    const charts = page.locator('.ov-chart').filter({ has: page.locator('.recharts-line') });
    await expect(page.getByTestId('chart-memory').locator('.recharts-line path').first()).toBeVisible({ timeout: 15_000 });
    // A few seconds of history so the time axis has more than one tick.
    await expect.poll(async () => (await tickLabels(page.getByTestId('chart-ops'), 'x')).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const n = await charts.count();
    expect(n).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < n; i++) {
      const chart = charts.nth(i);
      const name = await chart.getAttribute('aria-label');
      const y = await tickLabels(chart, 'y');
      expect(y.length, `${name}: ${y.join(' | ')}`).toBeGreaterThanOrEqual(2);
      expect(new Set(y).size, `${name} repeats a label: ${y.join(' | ')}`).toBe(y.length);
      const read = y.map(readTick);
      expect(
        read.every((r) => r !== undefined),
        `${name} has a label that is no figure: ${y.join(' | ')}`,
      ).toBe(true);
      const values = read.map((r) => r?.value ?? Number.NaN);
      // One unit over the whole axis (no "512 KiB" beside "1 MiB"): the labels compare as written.
      expect(new Set(read.slice(1).map((r) => r?.unit)).size, `${name} mixes units: ${y.join(' | ')}`).toBe(1);
      expect(values[0], `${name} starts at 0: ${y.join(' | ')}`).toBe(0);
      const steps = values.slice(1).map((v, j) => v - (values[j] ?? 0));
      for (const s of steps) expect(s, `${name} steps unevenly: ${y.join(' | ')}`).toBeCloseTo(steps[0] ?? 0, 6);
      expect(isNiceStep(steps[0] ?? 0), `${name} step ${steps[0]} is not 1, 2 or 5 × 10^n: ${y.join(' | ')}`).toBe(true);
      const x = await tickLabels(chart, 'x');
      expect(new Set(x).size, `${name} repeats a time: ${x.join(' | ')}`).toBe(x.length);
      // The last time label is drawn whole inside the chart.
      const svg = await chart.locator('svg.recharts-surface').boundingBox();
      const last = await chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').last().boundingBox();
      if (svg !== null && last !== null) expect(last.x + last.width, `${name}: last time label cut`).toBeLessThanOrEqual(svg.x + svg.width + 0.5);
    }
  });
});
