import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { electronAppOf } from '../appFixture';
import { openRoute } from './openRoute';

/** The Bulk load page, as an ops engineer drives it. */
export class BulkPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await openRoute(this.page, 'bulk-load');
    await expect(this.page.getByRole('heading', { name: 'Bulk load' })).toBeVisible();
  }

  /**
   * Gives the page a file: the web build uploads it through its file input; the desktop
   * picks it with the main process's file dialog, answered here with a file of that name.
   * Either way the page selects the new file.
   */
  async upload(name: string, content: string): Promise<void> {
    const app = electronAppOf(this.page);
    if (app === undefined) {
      await this.page.getByTestId('bulk-upload-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(content) });
    } else {
      const dir = test.info().outputPath('picked');
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, name);
      writeFileSync(file, content);
      // The dialog is the one thing a test cannot click: stub it in the main process, as
      // main/electron/filePicker.ts calls it.
      await app.evaluate(({ dialog }, filePath) => {
        dialog.showOpenDialog = () => Promise.resolve({ canceled: false, filePaths: [filePath] });
      }, file);
      await this.page.getByTestId('bulk-pick').click();
    }
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

  report(name: 'records' | 'errors' | 'swapped' | 'stale' | 'live-writes' | 'staging-left'): Locator {
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
  optIn(name: 'allowEmpty' | 'allowEvictionRisk' | 'allowLiveWrites'): Locator {
    return this.page.getByTestId(`bulk-${name}`);
  }

  /** The command the report gives to empty a staging DB it left as it was. */
  cleanCommand(): Locator {
    return this.page.getByTestId('bulk-clean-command');
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`field-error-${field}`);
  }
}
