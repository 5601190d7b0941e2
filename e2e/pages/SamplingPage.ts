import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import { ConnectionsPage } from './ConnectionsPage';
import { openRoute } from './openRoute';

export type SamplingField = 'db' | 'samples' | 'match' | 'scanCount' | 'pauseMs' | 'memorySamples';

/** The Sampling page, as an analyst drives it. */
export class SamplingPage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string): Promise<void> {
    await openRoute(this.page, 'sampling');
    if (profileName !== undefined) await this.page.getByLabel('Profile').selectOption({ label: profileName });
    await expect(this.page.getByRole('heading', { name: 'Sampling' })).toBeVisible();
  }

  /** Adds a profile for a spawned server and opens the page on it. */
  async openOn(prefix: string, server: { host: string; port: number }): Promise<void> {
    await this.open(await new ConnectionsPage(this.page).addServer(prefix, server));
  }

  /** Starts a run with these inputs and waits for its report. */
  async run(method: 'sample' | 'census', fields: Partial<Record<SamplingField, string>>): Promise<void> {
    await this.method(method);
    for (const [field, value] of Object.entries(fields)) await this.fill(field as SamplingField, value);
    await this.start();
    await expect(this.state()).toHaveText('done', { timeout: 30_000 });
  }

  async method(m: 'sample' | 'census'): Promise<void> {
    await this.page.getByTestId(`sampling-method-${m}`).check();
  }

  async fill(field: SamplingField, value: string): Promise<void> {
    await this.page.getByTestId(`sampling-${field}`).fill(value);
  }

  async start(): Promise<void> {
    await this.page.getByTestId('sampling-start').click();
  }

  async cancel(): Promise<void> {
    await this.page.getByTestId('sampling-cancel').click();
  }

  /** running, done, cancelled or failed. */
  state(): Locator {
    return this.page.getByTestId('sampling-state');
  }

  headline(): Locator {
    return this.page.getByTestId('sampling-headline');
  }

  fieldError(field: SamplingField): Locator {
    return this.page.getByTestId(`field-error-${field}`);
  }

  report(): Locator {
    return this.page.getByTestId('sampling-report');
  }

  /** One cell of the types table: `col` is count, percent, ci, memory, estimated-count or estimated-memory. */
  typeCell(type: string, col: string): Locator {
    return this.page.getByTestId('sampling-types').locator(`tr[data-type="${type}"] [data-col="${col}"]`);
  }

  typeRows(): Locator {
    return this.page.getByTestId('sampling-types').locator('tbody tr');
  }

  /** A prefix's row in the prefix tree (top-level rows are shown; children once opened). */
  prefixRow(prefix: string): Locator {
    return this.page.getByTestId('sampling-namespaces').locator(`tr[data-prefix="${prefix}"]`);
  }

  async openPrefix(prefix: string): Promise<void> {
    await this.prefixRow(prefix).getByRole('button').click();
  }

  topByMemory(): Locator {
    return this.page.getByTestId('sampling-top-memory');
  }

  summary(name: 'dbsize' | 'keys-examined' | 'estimated-memory' | 'keys-missing'): Locator {
    return this.page.getByTestId(`sampling-${name}`);
  }

  chart(name: 'types' | 'memory' | 'ttl' | 'size' | 'length' | 'namespaces'): Locator {
    return this.page.getByTestId(`sampling-chart-${name}`);
  }

  /** Clicks an export button and returns the downloaded file's name and text. */
  async export(kind: 'csv' | 'json'): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(`sampling-export-${kind}`).click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
  }

  /**
   * Grows the viewport to the whole page (the shell scrolls inside .content), then shoots it.
   * Scrolled to the top first: a page left scrolled (an export button far down) would be
   * measured short and shot with the sticky top bar over the middle of the form.
   */
  async screenshot(path: string): Promise<void> {
    const height = await this.page.evaluate(() => {
      const content = document.querySelector('.content');
      window.scrollTo(0, 0);
      content?.scrollTo(0, 0);
      const top = content?.getBoundingClientRect().top ?? 0;
      return Math.ceil(top + (content?.scrollHeight ?? document.body.scrollHeight));
    });
    const width = this.page.viewportSize()?.width ?? 1280;
    await this.page.setViewportSize({ width, height: Math.max(800, height) });
    await this.page.screenshot({ path, fullPage: true });
  }
}
