import { expect, type Locator, type Page } from '@playwright/test';
import { openRoute } from './openRoute';

export type Counter = 'received' | 'unparsed' | 'filtered' | 'matched' | 'delivered' | 'dropped' | 'rate' | 'omem';

/** The Monitor page, as an ops engineer drives it. */
export class MonitorPage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string): Promise<void> {
    await openRoute(this.page, 'monitor');
    if (profileName !== undefined) await this.page.getByLabel('Profile').selectOption({ label: profileName });
    await expect(this.page.getByRole('heading', { name: 'Monitor' })).toBeVisible();
    await expect(this.page.getByTestId('monitor-nodes')).toBeVisible();
  }

  /** A node's checkbox in the node picker. */
  node(address: string): Locator {
    return this.page.locator(`[data-testid="monitor-node"][data-address="${address}"]`).getByRole('checkbox');
  }

  async start(): Promise<void> {
    await this.page.getByTestId('monitor-start').click();
    await expect(this.page.getByTestId('monitor-stop')).toBeVisible();
  }

  pane(address?: string): Locator {
    return address === undefined ? this.page.getByTestId('monitor-pane').first() : this.page.locator(`[data-testid="monitor-pane"][data-address="${address}"]`);
  }

  async live(address?: string): Promise<void> {
    await expect(this.pane(address)).toHaveAttribute('data-status', 'live');
  }

  rows(pane: Locator): Locator {
    return pane.getByTestId('monitor-row');
  }

  counter(pane: Locator, name: Counter): Locator {
    return pane.getByTestId(`monitor-${name}`);
  }

  /** A counter's exact value (data-value), or undefined before the first event. */
  async value(pane: Locator, name: Counter): Promise<number | undefined> {
    const v = await this.counter(pane, name).getAttribute('data-value');
    return v === null || v === '' ? undefined : Number(v);
  }

  /**
   * Every counter of a pane read in one step (one render's figures, never two batches'),
   * NaN where a counter shows no value yet.
   */
  async counters(pane: Locator): Promise<Record<Counter, number>> {
    return pane.getByTestId('monitor-received').evaluate((el) => {
      const grid = el.closest('dl');
      const out: Record<string, number> = {};
      for (const v of grid?.querySelectorAll<HTMLElement>('[data-testid^="monitor-"]') ?? []) {
        const raw = v.dataset['value'] ?? '';
        out[(v.dataset['testid'] ?? '').slice('monitor-'.length)] = raw === '' ? Number.NaN : Number(raw);
      }
      return out as Record<Counter, number>;
    });
  }

  async filter(field: 'commands' | 'keyGlob' | 'client' | 'db' | 'sampleEvery', value: string): Promise<void> {
    await this.page.getByTestId(`monitor-filter-${field}`).fill(value);
  }

  async hideOwn(on: boolean): Promise<void> {
    await this.page.getByTestId('monitor-filter-hideOwn').setChecked(on);
  }

  async search(text: string): Promise<void> {
    await this.page.getByTestId('monitor-search').fill(text);
  }
}
