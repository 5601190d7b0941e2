import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './AppShell';
import { ConnectionsPage } from './ConnectionsPage';
import { openRoute } from './openRoute';

export type StringView = 'Text' | 'JSON' | 'Hex' | 'Decoded';

/** The Keys page's value panel: one key's metadata, its value in each view, and its edits. */
export class KeyValuePanel {
  private profileId = '';

  constructor(private readonly page: Page) {}

  /** Adds a profile for a spawned server and picks it in the header; later `open`s deep-link on it. */
  async useServer(prefix: string, server: { host: string; port: number }): Promise<void> {
    const name = await new ConnectionsPage(this.page).addServer(prefix, server);
    await this.useProfile(name);
  }

  /** Picks a profile already listed (e.g. after signing in to another server). */
  async useProfile(name: string): Promise<void> {
    await new AppShell(this.page).selectProfile(name);
    this.profileId = await this.page.getByLabel('Profile', { exact: true }).inputValue();
  }

  /** The deep link `#/keys?profile=…&key=<base64>`, as links from other pages open a key. */
  async open(key: string | Buffer, origin = ''): Promise<void> {
    const b64 = Buffer.from(key).toString('base64');
    await openRoute(this.page, `keys?profile=${encodeURIComponent(this.profileId)}&key=${encodeURIComponent(b64)}`, origin);
    await expect(this.root()).toHaveAttribute('data-key', b64);
    await expect(this.root()).toHaveAttribute('data-exists', /true|false/);
  }

  /** The page with no key open, where ops find the new-key form. */
  async openNone(origin = ''): Promise<void> {
    await openRoute(this.page, `keys?profile=${encodeURIComponent(this.profileId)}`, origin);
    await expect(this.page.getByTestId('keys-open')).toHaveAttribute('data-key', '');
  }

  root(): Locator {
    return this.page.getByTestId('keys-value');
  }

  meta(field: 'type' | 'encoding' | 'length' | 'memory' | 'ttl' | 'access' | 'dump'): Locator {
    return this.page.getByTestId(`kv-meta-${field}`);
  }

  missing(): Locator {
    return this.page.getByTestId('kv-missing');
  }

  /** The rows of the open collection view (only those in view are in the DOM). */
  rows(): Locator {
    return this.root().getByTestId('kv-rows').locator('.kv-row');
  }

  row(hasText: string): Locator {
    return this.rows().filter({ hasText });
  }

  shown(): Locator {
    return this.root().getByTestId('kv-shown');
  }

  async loadMore(): Promise<void> {
    await this.root().getByTestId('kv-load-more').click();
  }

  async view(v: StringView): Promise<void> {
    await this.root().getByTestId('kv-string-view').getByRole('button', { name: v, exact: true }).click();
  }

  text(): Locator {
    return this.root().getByTestId('kv-text');
  }

  hex(): Locator {
    return this.root().getByTestId('kv-hex');
  }

  json(): Locator {
    return this.root().getByTestId('kv-json');
  }

  testId(id: string): Locator {
    return this.root().getByTestId(id);
  }

  async fill(id: string, value: string): Promise<void> {
    await this.root().getByTestId(id).fill(value);
  }

  async click(id: string): Promise<void> {
    await this.root().getByTestId(id).click();
  }

  conflict(): Locator {
    return this.root().getByTestId('kv-conflict');
  }

  /** Every control that writes: none of them may exist for an analyst. */
  editControls(): Locator {
    return this.root().locator('[data-testid="kv-actions"], .kv-form, [data-testid="kv-row-delete"], [data-testid="kv-string-edit"]');
  }

  async rename(to: string, overwrite = false): Promise<void> {
    await this.click('kv-rename-open');
    await this.fill('kv-rename-to', to);
    if (overwrite) await this.root().getByTestId('kv-rename-overwrite').check();
    await this.click('kv-rename-save');
    if (overwrite) await this.click('kv-rename-confirm');
  }

  async delete(): Promise<void> {
    await this.click('kv-delete-open');
    await this.click('kv-delete-confirm');
  }
}
