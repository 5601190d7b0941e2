import { expect, type Locator, type Page } from '@playwright/test';
import { openRoute } from './openRoute';

/** The Config page, as an ops engineer (or an analyst, reading) drives it. */
export class ConfigPage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string, origin = ''): Promise<void> {
    await openRoute(this.page, 'config', origin);
    if (profileName !== undefined) await this.page.getByLabel('Profile', { exact: true }).selectOption({ label: profileName });
    await expect(this.page.getByRole('heading', { level: 1, name: 'Config' })).toBeVisible();
  }

  /** Waits until the table is drawn (the nodes were read). */
  async loaded(): Promise<void> {
    await expect(this.page.getByTestId('config-table')).toBeVisible({ timeout: 15_000 });
  }

  node(address: string): Locator {
    return this.page.locator(`[data-testid="config-node"][data-address="${address}"]`);
  }

  rows(): Locator {
    return this.page.getByTestId('config-row');
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="config-row"][data-name="${name}"]`);
  }

  cell(name: string, address: string): Locator {
    return this.row(name).locator(`[data-testid="config-cell"][data-address="${address}"]`);
  }

  async search(text: string): Promise<void> {
    await this.page.getByTestId('config-search').fill(text);
  }

  async differencesOnly(on: boolean): Promise<void> {
    await this.page.getByTestId('config-diffs-only').setChecked(on);
  }

  /** Opens the Edit form of a parameter, sets the value and the target ("every" or an address), and applies it. */
  async set(name: string, value: string, target: 'every' | string): Promise<Locator> {
    const form = this.page.getByTestId('config-edit');
    if (!(await form.isVisible())) await this.row(name).getByTestId('config-edit-open').click();
    await form.getByTestId('config-edit-value').fill(value);
    await form.getByTestId('config-edit-target').selectOption(target);
    await form.getByTestId('config-edit-apply').click();
    const results = form.getByTestId('config-set-results');
    await expect(results).toBeVisible();
    return results;
  }

  result(results: Locator, address: string): Locator {
    return results.locator(`li[data-address="${address}"]`);
  }

  refusal(): Locator {
    return this.page.getByTestId('config-refusal');
  }

  /** The page with the pointer out of the way (no hover styles in the picture). */
  async screenshot(path: string): Promise<void> {
    await this.page.mouse.move(0, 0);
    await this.page.screenshot({ path });
  }
}

/** Every WebSocket frame the page receives from its server, as text (the ones it sends hold what the user typed). */
export function receivedFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => void frames.push(f.payload.toString())));
  return frames;
}
