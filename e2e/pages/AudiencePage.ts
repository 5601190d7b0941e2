import { expect, type Locator, type Page } from '@playwright/test';
import { ConnectionsPage } from './ConnectionsPage';
import { SamplingPage } from './SamplingPage';
import { openRoute } from './openRoute';

export type AudienceField = 'from' | 'to' | 'trials' | 'warmup' | 'db';
export type Strategy = 'bitmap-lua' | 'bitmap-pipeline' | 'sets' | 'zunionstore';

/** The Audience trials page, as an analyst (or, for the demo data, an ops engineer) drives it. */
export class AudiencePage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string): Promise<void> {
    await openRoute(this.page, 'audience-trials');
    if (profileName !== undefined) await this.page.getByLabel('Profile').selectOption({ label: profileName });
    await expect(this.page.getByRole('heading', { level: 1, name: 'Audience trials' })).toBeVisible();
  }

  /** Adds a profile for a spawned server and opens the page on it. */
  async openOn(prefix: string, server: { host: string; port: number }): Promise<void> {
    await this.open(await new ConnectionsPage(this.page).addServer(prefix, server));
  }

  /** Loads the synthetic dataset from the page and waits until it is written and the builder has scanned it. */
  async loadDemo(size: { users: string; days: string; seed: string }, timeout = 60_000): Promise<void> {
    for (const [name, value] of Object.entries(size)) await this.page.getByTestId(`aud-demo-${name}`).fill(value);
    await this.page.getByTestId('aud-demo-load').click();
    await expect(this.page.getByTestId('aud-demo-state')).toHaveText('done', { timeout });
    await expect(this.attributes().first()).toBeVisible();
  }

  demoFigures(): Locator {
    return this.page.getByTestId('aud-demo-figures');
  }

  /** One attribute's row in the builder. */
  attribute(name: string): Locator {
    return this.page.locator(`[data-testid="aud-attr"][data-name="${name}"]`);
  }

  attributes(): Locator {
    return this.page.getByTestId('aud-attr');
  }

  chip(name: string, value: string): Locator {
    return this.attribute(name).locator(`button.aud-chip[data-value="${value}"]`);
  }

  /** The values an attribute offers as chips, in order. */
  async chipValues(name: string): Promise<string[]> {
    return this.attribute(name)
      .locator('button.aud-chip')
      .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-value') ?? ''));
  }

  async attributeNames(): Promise<string[]> {
    return this.attributes().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name') ?? ''));
  }

  where(): Locator {
    return this.page.getByTestId('aud-where');
  }

  /** empty, checking, valid, unknown, invalid or unchecked. */
  parse(): Locator {
    return this.page.getByTestId('aud-parse');
  }

  parseError(): Locator {
    return this.page.getByTestId('aud-parse-error');
  }

  unknown(): Locator {
    return this.page.getByTestId('aud-unknown');
  }

  async fill(fields: Partial<Record<AudienceField, string>>): Promise<void> {
    for (const [field, value] of Object.entries(fields)) await this.page.getByTestId(`aud-${field}`).fill(value);
  }

  field(name: AudienceField): Locator {
    return this.page.getByTestId(`aud-${name}`);
  }

  async strategy(name: Strategy, on: boolean): Promise<void> {
    await this.page.getByTestId(`aud-strategy-${name}`).setChecked(on);
  }

  /** The Key layout panel (opened), one of its inputs, and its state ("· custom", "· needs a fix"). */
  async layout(fields: Partial<Record<string, string>>): Promise<void> {
    const panel = this.page.getByTestId('aud-layout');
    if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
    for (const [field, value] of Object.entries(fields)) await this.page.getByTestId(`aud-layout-${field}`).fill(value ?? '');
  }

  layoutState(): Locator {
    return this.page.getByTestId('aud-layout-state');
  }

  runButton(): Locator {
    return this.page.getByTestId('aud-run');
  }

  /** Starts the trial as set up and waits for it to end with `outcome`. */
  async run(outcome: 'done' | 'failed' = 'done', timeout = 60_000): Promise<void> {
    await this.runButton().click();
    await expect(this.state()).toHaveText(outcome, { timeout });
  }

  /** running, done, cancelled or failed. */
  state(): Locator {
    return this.page.getByTestId('aud-state');
  }

  report(): Locator {
    return this.page.getByTestId('aud-report');
  }

  stat(name: 'size' | 'peak' | 'best' | 'counts-match'): Locator {
    return this.page.getByTestId(`aud-${name}`);
  }

  chart(name: 'days' | 'latency'): Locator {
    return this.page.getByTestId(`aud-chart-${name}`);
  }

  strategyRow(name: Strategy): Locator {
    return this.page.getByTestId('aud-strategies').locator(`tr[data-strategy="${name}"]`);
  }

  /** A cell of the strategies table: runs, minMs, p50Ms, p95Ms, meanMs, serverMs, vsBest, commands, bytesOut, bytesIn, audienceSize, matches, skipped. */
  cell(name: Strategy, col: string): Locator {
    return this.strategyRow(name).locator(`[data-col="${col}"]`);
  }

  mismatch(): Locator {
    return this.page.getByTestId('aud-mismatch');
  }

  historyRows(): Locator {
    return this.page.getByTestId('aud-history').locator('tbody tr[data-report-id]');
  }

  compare(): Locator {
    return this.page.getByTestId('aud-compare');
  }

  /** The whole page at the viewport's width (the shell scrolls inside .content, so the viewport grows to fit). */
  async screenshot(path: string): Promise<void> {
    await new SamplingPage(this.page).screenshot(path);
  }
}
