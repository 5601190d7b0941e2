import { expect, type Locator, type Page } from '@playwright/test';
import { ConnectionsPage } from './ConnectionsPage';
import { openRoute } from './openRoute';

export type TrialName = 'Pipeline' | 'Multiplex' | 'Load';
export type TrialField = 'db' | 'n' | 'batch' | 'sweepN' | 'dbs' | 'clients' | 'dataSize' | 'keyspace' | 'latencyMs';
export type TrialBox = 'sweep' | 'proxy' | 'confirm';

/** The Pipeline trials page, as an ops engineer drives it. */
export class TrialsPage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string): Promise<void> {
    await openRoute(this.page, 'pipeline-trials');
    if (profileName !== undefined) await this.page.getByLabel('Profile').selectOption({ label: profileName });
    await expect(this.page.getByRole('heading', { name: 'Pipeline trials' })).toBeVisible();
  }

  /** Adds a profile for a spawned server and opens the page on it. */
  async openOn(prefix: string, server: { host: string; port: number }): Promise<void> {
    await this.open(await new ConnectionsPage(this.page).addServer(prefix, server));
  }

  async pick(trial: TrialName): Promise<void> {
    const button = this.page.getByTestId('trials-picker').getByRole('button', { name: trial, exact: true });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  }

  async fill(fields: Partial<Record<TrialField, string>>): Promise<void> {
    for (const [field, value] of Object.entries(fields)) await this.page.getByTestId(`trials-${field}`).fill(value);
  }

  async check(box: TrialBox, on = true): Promise<void> {
    await this.page.getByTestId(`trials-${box}`).setChecked(on);
  }

  async start(): Promise<void> {
    await this.page.getByTestId('trials-start').click();
  }

  /** Starts the trial as set up and waits for this new run (not the last one shown) to end with `outcome`. */
  async run(outcome: 'done' | 'failed' = 'done', timeout = 45_000): Promise<void> {
    const root = this.page.locator('.trial-page');
    const before = await root.getAttribute('data-job-id');
    await this.start();
    await expect(root).toHaveAttribute('data-job-id', before === null ? /^trial_/ : new RegExp(`^(?!${before}$)trial_`));
    await expect(this.state()).toHaveText(outcome, { timeout });
  }

  async cancel(): Promise<void> {
    await this.page.getByTestId('trials-cancel').click();
  }

  /** The job id of the page's current run. */
  async jobId(): Promise<string> {
    await expect(this.page.locator('.trial-page')).toHaveAttribute('data-job-id', /^trial_/);
    const id = await this.page.locator('.trial-page').getAttribute('data-job-id');
    if (id === null) throw new Error('no trial has been started on the page');
    return id;
  }

  /** running, done, cancelled or failed. */
  state(): Locator {
    return this.page.getByTestId('trials-state');
  }

  headline(): Locator {
    return this.page.getByTestId('trials-headline');
  }

  stat(name: 'step' | 'rate'): Locator {
    return this.page.getByTestId(`trials-${name}`);
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`field-error-${field}`);
  }

  report(): Locator {
    return this.page.getByTestId('trials-report');
  }

  resultRows(): Locator {
    return this.page.getByTestId('trials-results').locator('tbody tr[data-variant]');
  }

  /** One cell of the results table: ops, seconds, opsPerSec, ratio, keys, errors, p50Ms, p95Ms, p99Ms, maxMs. */
  cell(variant: string, col: string): Locator {
    return this.page.getByTestId('trials-results').locator(`tr[data-variant="${variant}"] [data-col="${col}"]`);
  }

  chart(name: 'ops' | 'sweep' | 'latency'): Locator {
    return this.page.getByTestId(`trials-chart-${name}`);
  }

  sweepRows(): Locator {
    return this.page.getByTestId('trials-sweep').locator('tbody tr');
  }

  latency(): Locator {
    return this.page.getByTestId('trials-latency');
  }

  kept(trial: 'pipeline' | 'multiplex' | 'load'): Locator {
    return this.page.getByTestId(`trials-kept-${trial}`).locator('tbody tr');
  }

  /** A viewport-sized shot (1280×800); with `scrollTo`, the page scrolled to put that element at the top. */
  async screenshot(path: string, scrollTo?: Locator): Promise<void> {
    if (scrollTo !== undefined) await scrollTo.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 12));
    // The pointer rests where the last click was, which after the scroll may be over a chart: no tooltip in the shot.
    await this.page.mouse.move(0, 0);
    await this.page.screenshot({ path });
  }

  /** The whole page, grown to its height, for a look at everything below the fold. */
  async screenshotAll(path: string): Promise<void> {
    const height = await this.page.evaluate(() => document.documentElement.scrollHeight);
    const size = this.page.viewportSize() ?? { width: 1280, height: 800 };
    await this.page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
    await this.page.screenshot({ path, fullPage: true });
    await this.page.setViewportSize(size);
  }
}
