import { expect, type Locator, type Page } from '@playwright/test';
import { openRoute } from './openRoute';

/** The Clients page, as an operator drives it. */
export class ClientsPage {
  constructor(private readonly page: Page) {}

  /** Go to the page and, given a profile, pick it and wait for its first list. */
  async open(profileName?: string): Promise<void> {
    await openRoute(this.page, 'clients');
    await expect(this.page.getByRole('heading', { name: 'Clients' })).toBeVisible();
    if (profileName !== undefined) await this.pick(profileName);
  }

  async pick(profileName: string): Promise<void> {
    await this.page.getByLabel('Profile').selectOption({ label: profileName });
    await expect(this.table()).toBeVisible();
  }

  table(): Locator {
    return this.page.getByTestId('clients-table');
  }

  rows(): Locator {
    return this.page.getByTestId('clients-row');
  }

  /** The row of the client named `name` (names are exact text). */
  row(name: string): Locator {
    return this.rows().filter({ has: this.page.getByTestId('clients-name').getByText(name, { exact: true }) });
  }

  /** How many clients the filters keep, and how many were listed (the count's data attributes). */
  async counts(): Promise<{ shown: number; total: number }> {
    const c = this.page.getByTestId('clients-count');
    return { shown: Number(await c.getAttribute('data-shown')), total: Number(await c.getAttribute('data-total')) };
  }

  /** The names in the rows on screen, top to bottom. */
  async names(): Promise<string[]> {
    const rows = await this.rows().all();
    const placed = await Promise.all(
      rows.map(async (r) => ({ top: Number((await r.getAttribute('aria-rowindex')) ?? 0), name: (await r.getByTestId('clients-name').textContent()) ?? '' })),
    );
    return placed.sort((a, b) => a.top - b.top).map((p) => p.name);
  }

  async filter(text: string): Promise<void> {
    await this.page.getByTestId('clients-filter').fill(text);
  }

  async sort(column: string): Promise<void> {
    await this.page.getByTestId(`clients-sort-${column}`).click();
  }

  node(address: string): Locator {
    return this.page.locator(`[data-testid="clients-node"][data-address="${address}"]`);
  }

  /** Stop the live refresh (a picture, a figure read in peace). */
  async pauseUpdates(): Promise<void> {
    const live = this.page.getByTestId('clients-live');
    if ((await live.getAttribute('aria-pressed')) === 'false') await live.click();
    await expect(live).toHaveAttribute('aria-pressed', 'true');
  }

  /** Kill the client named `name`: the dialog must name it; returns the outcome line. */
  async kill(name: string): Promise<Locator> {
    await this.row(name).getByTestId('clients-kill').click();
    const dialog = this.page.getByTestId('clients-kill-dialog');
    await expect(dialog.getByTestId('clients-kill-who')).toContainText(name);
    await dialog.getByTestId('clients-kill-dialog-confirm').click();
    await expect(dialog).toHaveCount(0);
    return this.page.getByTestId('clients-outcome');
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path, fullPage: true });
  }
}
