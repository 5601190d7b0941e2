import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** The Keys page's Export dialog (renderer/pages/keys/export/ExportDialog.tsx). */
export class ExportDialog {
  constructor(private readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByTestId('export-dialog');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('export-open').click();
    await expect(this.dialog()).toBeVisible();
  }

  async choose(source: 'folder' | 'pattern' | 'key', format: 'ndjson' | 'csv' | 'restore'): Promise<void> {
    await this.page.getByTestId(`export-source-${source}`).check();
    await this.page.getByTestId(`export-format-${format}`).check();
  }

  /** Starts the export and returns the browser's download of it. */
  async start(): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.page.getByTestId('export-start').click();
    return download;
  }

  counts(): Locator {
    return this.page.getByTestId('export-counts');
  }

  skipped(): Locator {
    return this.page.getByTestId('export-skipped');
  }

  async waitDone(): Promise<void> {
    await expect(this.dialog()).toHaveAttribute('data-outcome', 'done', { timeout: 30_000 });
  }

  async close(): Promise<void> {
    await this.page.getByTestId('export-close').click();
    await expect(this.dialog()).toHaveCount(0);
  }

  async screenshot(path: string): Promise<void> {
    // The page whole: the modal over the Keys page, as the user sees it.
    await this.page.screenshot({ path });
  }
}
