import { expect, type Locator, type Page } from '@playwright/test';
import { openRoute } from './openRoute';

export type AuditOutcome = 'started' | 'ok' | 'failed' | 'cancelled' | 'refused';

/** The Audit log page, as an ops engineer reads it. */
export class AuditPage {
  constructor(private readonly page: Page) {}

  /** `origin` for a server other than the suite's own (a `startServe` one). */
  async open(origin = ''): Promise<void> {
    await openRoute(this.page, 'audit', origin);
    await expect(this.page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  }

  async refresh(): Promise<void> {
    await this.page.getByTestId('audit-refresh').click();
  }

  table(): Locator {
    return this.page.getByTestId('audit-table');
  }

  /** Rows, optionally of one action on one target (host:port as the server wrote it). */
  rows(filter: { action?: string; target?: string; outcome?: AuditOutcome } = {}): Locator {
    const attrs = Object.entries(filter)
      .map(([k, v]) => `[data-${k}="${v}"]`)
      .join('');
    return this.table().locator(`[data-testid="audit-row"]${attrs}`);
  }

  cell(row: Locator, col: 'user' | 'action' | 'target' | 'outcome' | 'took' | 'detail'): Locator {
    return row.locator(`[data-col="${col}"]`);
  }

  async filter(text: string): Promise<void> {
    await this.page.getByTestId('audit-filter').fill(text);
  }

  /** Picks an outcome in the filter: `all` or one outcome (the buttons carry counts). */
  async outcome(o: AuditOutcome | 'all'): Promise<void> {
    await this.page
      .getByTestId('audit-outcome')
      .getByRole('button', { name: new RegExp(`^${o} `, 'i') })
      .click();
  }
}
