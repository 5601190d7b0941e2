import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { expect, test } from '../redisFixture';

test.describe('Latency monitoring on the Overview', () => {
  test('says off; ops turn it on for a while and off again', async ({ page, redis, admin }, testInfo) => {
    await admin.config('SET', 'latency-monitor-threshold', '0');
    await page.setViewportSize({ width: 1280, height: 800 });
    const conns = new ConnectionsPage(page);
    const name = await conns.addServer('latency', redis);
    await new MetricsPage(page).open(name);

    const panel = page.getByTestId('latency-monitor');
    const line = page.getByTestId('latency-monitor-line');
    await expect(line).toHaveText('Latency monitoring is off (latency-monitor-threshold 0): nothing is recorded.', { timeout: 15_000 });

    await panel.getByLabel('Latency threshold in milliseconds').fill('25');
    await panel.getByLabel('How long latency monitoring stays on').selectOption('30');
    await panel.getByTestId('latency-monitor-on').click();
    await expect(line).toContainText(/records events over 25 ms, until \d\d:\d\d \(was 0\)\./);
    const [, set] = (await admin.config('GET', 'latency-monitor-threshold')) as string[];
    expect(set).toBe('25');

    const section = page.locator('section.ov-slowlog');
    await section.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await section.screenshot({ path: testInfo.outputPath(`latency-on-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await panel.getByTestId('latency-monitor-off').click();
    await expect(line).toHaveText('Latency monitoring is off (latency-monitor-threshold 0): nothing is recorded.');
    await expect(page.getByTestId('latency-monitor-ended')).toContainText('Put back to 0');
    const [, back] = (await admin.config('GET', 'latency-monitor-threshold')) as string[];
    expect(back).toBe('0');
    await section.screenshot({ path: testInfo.outputPath('latency-off-light.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await section.screenshot({ path: testInfo.outputPath('latency-off-dark-1920.png') });

    await conns.open();
    await conns.remove(name);
  });
});
