import { expect, type Locator, type Page } from '@playwright/test';

/** The Bulk load page, as an ops engineer drives it. */
export class BulkLoadPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/#/bulk-load');
    await expect(this.page.getByRole('heading', { name: 'Bulk load' })).toBeVisible();
  }

  /** Uploads through the page's file input; the page selects the new file. */
  async upload(name: string, content: string): Promise<void> {
    await this.page.getByTestId('bulk-upload-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(content) });
    await expect(this.file(name)).toHaveAttribute('data-selected', 'true');
  }

  file(name: string): Locator {
    return this.page.locator(`[data-testid="bulk-file"][data-file-name="${name}"]`);
  }

  async mapString(key: string, value: string): Promise<void> {
    await this.page.getByLabel('Key template').fill(key);
    await this.page.getByLabel('Value column').fill(value);
  }

  preview(): Locator {
    return this.page.getByTestId('bulk-preview');
  }

  async setMaxErrors(n: number): Promise<void> {
    const field = this.page.getByLabel('Max errors');
    if (!(await field.isVisible())) await this.page.getByText('Advanced').click();
    await field.fill(String(n));
  }

  /** Types the DB number (swap and flush ask for it) and starts. */
  async start(confirmDb: number): Promise<void> {
    const start = this.page.getByTestId('bulk-start');
    await expect(start).toBeDisabled();
    await this.page.getByTestId('bulk-confirm-db').fill(String(confirmDb));
    await start.click();
  }

  outcome(): Locator {
    return this.page.getByTestId('bulk-outcome');
  }

  report(name: 'records' | 'errors' | 'swapped'): Locator {
    return this.page.getByTestId(`bulk-report-${name}`);
  }

  firstErrors(): Locator {
    return this.page.getByTestId('bulk-first-errors');
  }

  /** The report's error message. */
  error(): Locator {
    return this.page.getByTestId('bulk-error');
  }

  /** The report's "Live DB" cell: key counts compared before the switch, and the live DB's check. */
  live(): Locator {
    return this.page.getByTestId('bulk-report-live');
  }

  keyCounts(): Locator {
    return this.page.getByTestId('bulk-key-counts');
  }

  /** "Change settings and load again": back to the form, the refusal under the input it names. */
  async adjust(): Promise<void> {
    await this.page.getByTestId('bulk-adjust').click();
  }

  /** The opt-in checkboxes beside the mode. */
  optIn(name: 'allowEmpty' | 'allowEvictionRisk'): Locator {
    return this.page.getByTestId(`bulk-${name}`);
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`field-error-${field}`);
  }
}
