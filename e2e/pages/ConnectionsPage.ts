import { expect, type Locator, type Page } from '@playwright/test';
import { openRoute } from './openRoute';

export interface ProfileForm {
  name: string;
  topology?: 'standalone' | 'cluster' | 'sentinel';
  host?: string;
  port?: string;
  db?: string;
  url?: string;
  password?: string;
  /** Cluster: more seed nodes, comma-separated. */
  seeds?: string;
  /** Sentinel: more sentinels, comma-separated, and the master name they monitor. */
  sentinels?: string;
  masterName?: string;
}

/** The Connections page, as a user drives it. */
export class ConnectionsPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await openRoute(this.page, 'connections');
    await expect(this.page.getByRole('heading', { name: 'Connections' })).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="profile-row"][data-profile-name="${name}"]`);
  }

  async startAdd(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add connection' }).click();
  }

  async fill(form: ProfileForm): Promise<void> {
    await this.page.getByLabel('Name', { exact: true }).fill(form.name);
    if (form.topology !== undefined) await this.page.getByTestId(`topology-${form.topology}`).check();
    if (form.url !== undefined) await this.page.getByLabel('URL', { exact: false }).first().fill(form.url);
    if (form.host !== undefined) await this.page.getByLabel('Host', { exact: true }).fill(form.host);
    if (form.port !== undefined) await this.page.getByLabel('Port', { exact: true }).fill(form.port);
    if (form.db !== undefined) await this.page.getByLabel('DB', { exact: true }).fill(form.db);
    if (form.seeds !== undefined) await this.page.getByLabel('Seed nodes', { exact: true }).fill(form.seeds);
    if (form.sentinels !== undefined) await this.page.getByLabel('Sentinels', { exact: true }).fill(form.sentinels);
    if (form.masterName !== undefined) await this.page.getByLabel('Master name', { exact: true }).fill(form.masterName);
    if (form.password !== undefined) await this.page.getByLabel('Password', { exact: true }).fill(form.password);
  }

  async save(): Promise<void> {
    await this.page.getByRole('button', { name: 'Save' }).click();
  }

  async add(form: ProfileForm): Promise<void> {
    await this.startAdd();
    await this.fill(form);
    await this.save();
    await expect(this.row(form.name)).toBeVisible();
  }

  /** Open the page and add a profile for a spawned server; returns the profile's name. */
  async addServer(prefix: string, server: { host: string; port: number }): Promise<string> {
    await this.open();
    const name = `${prefix}-${server.port}`;
    await this.add({ name, host: server.host, port: String(server.port) });
    return name;
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`field-error-${field}`);
  }

  async test(name: string): Promise<Locator> {
    const row = this.row(name);
    await row.getByRole('button', { name: 'Test' }).click();
    return row.getByTestId('test-result');
  }

  async remove(name: string): Promise<void> {
    const row = this.row(name);
    await row.getByRole('button', { name: 'Remove' }).click();
    await this.page.getByRole('button', { name: 'Confirm remove' }).click();
    await expect(row).toHaveCount(0);
  }

  /** Import… with a file's text: the dialog reads it, and Preview asks what it would add. */
  async previewImport(fileName: string, content: string, passphrase?: string): Promise<Locator> {
    await this.page.getByTestId('connections-import').click();
    const dialog = this.page.getByTestId('import-dialog');
    await dialog.getByTestId('import-file').setInputFiles({ name: fileName, mimeType: 'application/json', buffer: Buffer.from(content) });
    if (passphrase !== undefined) await dialog.getByTestId('import-passphrase').fill(passphrase);
    await dialog.getByTestId('import-preview').click();
    return dialog;
  }

  /** The tag filter's button for `tag` (undefined: All). */
  tagFilter(tag: string | undefined): Locator {
    return this.page.getByTestId('tag-filter').locator(`[data-tag="${tag ?? ''}"]`);
  }
}
