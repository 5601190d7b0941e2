import { expect, type Locator, type Page } from '@playwright/test';

export class OverviewPage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string): Promise<void> {
    await this.page.goto('/#/overview');
    if (profileName !== undefined) {
      await this.page.getByLabel('Profile').selectOption({ label: profileName });
    }
    await expect(this.page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  }

  stat(name: 'version' | 'role' | 'clients' | 'memory' | 'ops' | 'uptime'): Locator {
    return this.page.getByTestId(`stat-${name}`);
  }

  keyspace(): Locator {
    return this.page.getByTestId('keyspace-table');
  }
}
