import { readContrasts } from '../pages/contrast';
import { spawnRedisServer } from '../../main/core/redisProcess/spawnRedisServer';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { expect, test } from '../redisFixture';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

/**
 * A node that flaps leaves many short "unreachable" stretches side by side on the Overview's
 * charts: each printing its label over the next read as "dddddown". A label is drawn only where
 * its stretch holds it and a restart's only clear of the last one, so no two label boxes overlap;
 * a long outage is still labelled.
 */
test.describe('Overview gap labels', () => {
  test('a flapping node leaves no overlapping labels; a long outage keeps its label', async ({ page, redis }, testInfo) => {
    test.setTimeout(120_000);
    const conns = new ConnectionsPage(page);
    const name = await conns.addServer('flap', redis);
    const overview = new MetricsPage(page);
    await overview.open(name);
    await page.getByRole('group', { name: 'Time window' }).getByRole('button', { name: '1 min' }).click();
    const ops = page.getByTestId('chart-ops');
    await expect(ops).toHaveAttribute('data-first-at', /^\d+$/, { timeout: 15_000 });
    // The text slips one node shows: a count of one in the singular, a chart's unit said once.
    await expect(page.getByTestId('alerts-nodes')).toHaveText('1 node up.');
    await expect(ops.locator('figcaption')).toHaveText('Ops/s');
    await expect(page.locator('main')).not.toContainText(/\b1 (nodes|keys|clients)\b|ops\/s ops\/s/i);

    // The same port each time, so that the profile finds it again: short outages, then one long one.
    let server = redis;
    const cycle = async (downMs: number, upMs: number) => {
      await server.stop();
      await page.waitForTimeout(downMs);
      server = await spawnRedisServer({ port: redis.port });
      await page.waitForTimeout(upMs);
    };
    try {
      // Within the 1 min window: three flaps of a few polls each, then a stretch wide enough for its word.
      for (let i = 0; i < 3; i++) await cycle(2_000, 1_500);
      await cycle(12_000, 2_000);
      await expect(ops).toHaveAttribute('data-gaps', /\bdown\b/);
      // The long outage is wide enough for its word.
      await expect(ops.locator('.ov-gap-label', { hasText: 'unreachable' }).first()).toBeVisible();

      for (const size of SIZES.slice(0, 1)) {
        for (const scheme of ['light'] as const) {
          await page.setViewportSize(size);
          await page.emulateMedia({ colorScheme: scheme });
          // Scrolled without waiting for the charts to be still: they redraw every second. A screenshot of
          // this busy page can stall Playwright after a resize: one picture, first, is what we look at.
          await ops.evaluate((e) => e.scrollIntoView({ block: 'center' }));
          if (size.width === 1280 && scheme === 'light') await page.screenshot({ path: testInfo.outputPath('gap-labels-1280-light.png') });
          for (const chart of await page.locator('figure.ov-chart').all()) {
            // In one go: the charts redraw every second, so labels measured one by one may be gone.
            const labels = await chart
              .locator('.ov-gap-label, .recharts-reference-line text')
              .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
            for (let a = 0; a < labels.length; a++) {
              for (let b = a + 1; b < labels.length; b++) {
                const [p, q] = [labels[a]!, labels[b]!];
                const apart = p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y;
                expect(apart, `labels ${a} and ${b} of ${await chart.getAttribute('data-testid')} overlap (${size.width}, ${scheme})`).toBe(true);
              }
            }
          }
        }
      }
      // The words read in both themes: muted text's contrast, not a grey fixed for the light one.
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const [label] = await readContrasts(page, [{ what: `gap label (${scheme})`, css: '[data-testid="chart-ops"] .ov-gap-label', prop: 'fill' }]);
        expect(label!.contrast, `${label!.what}: ${label!.fg} on ${label!.bg}`).toBeGreaterThanOrEqual(4.5);
      }
    } finally {
      await page.emulateMedia({ colorScheme: null });
      if (server !== redis) await server.stop();
    }
  });
});
