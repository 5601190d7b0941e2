import { expect, type Locator, type Page } from '@playwright/test';

export type KeyActionOp = 'delete' | 'expire' | 'persist';
type Step = 'select' | 'dry' | 'confirm' | 'progress' | 'report';

/**
 * The Keys page's bulk action dialog: opened from the selected folder of the tree or from the
 * list, then selection, dry run, confirmation, progress and report.
 */
export class KeyActionsPanel {
  constructor(private readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByTestId('ka-dialog');
  }

  /** The three buttons under the tree (the selected folder) or under the list. */
  buttons(from: 'folder' | 'list'): Locator {
    return this.page.getByTestId(`ka-${from}`);
  }

  async open(from: 'folder' | 'list', op: KeyActionOp): Promise<void> {
    await this.page.getByTestId(`ka-${from}-${op}`).click();
    await expect(this.dialog()).toBeVisible();
    await this.expectStep('select');
  }

  async expectStep(step: Step, timeout = 30_000): Promise<void> {
    await expect(this.dialog()).toHaveAttribute('data-step', step, { timeout });
  }

  pattern(): Locator {
    return this.dialog().getByTestId('ka-pattern');
  }

  async filterType(type: string): Promise<void> {
    await this.dialog().getByTestId('ka-type').selectOption(type);
  }

  async filterTtl(filter: 'any' | 'none' | 'below' | 'above', seconds?: number): Promise<void> {
    await this.dialog().getByTestId('ka-ttl').selectOption(filter);
    if (seconds !== undefined) await this.dialog().getByTestId('ka-ttl-seconds').fill(String(seconds));
  }

  async expireIn(seconds: number, opts: { onlyNoTtl?: boolean; jitterPct?: number } = {}): Promise<void> {
    await this.dialog().getByTestId('ka-op-expire').check();
    await this.dialog().getByTestId('ka-seconds').fill(String(seconds));
    if (opts.onlyNoTtl !== undefined) await this.dialog().getByTestId('ka-nx').setChecked(opts.onlyNoTtl);
    if (opts.jitterPct !== undefined) await this.dialog().getByTestId('ka-jitter').fill(String(opts.jitterPct));
  }

  fieldError(field: string): Locator {
    return this.dialog().getByTestId(`field-error-${field}`);
  }

  /** Runs the dry run and waits for its result (the confirmation step). */
  async dryRun(): Promise<void> {
    await this.dialog().getByTestId('ka-dry-run').click();
    await this.expectStep('confirm');
  }

  /** A figure of the dry run: `matched` or `memory`. */
  dry(figure: 'matched' | 'memory'): Locator {
    return this.dialog().getByTestId(`ka-dry-${figure}`);
  }

  /** The names the dry run shows (up to 20), as rendered text. */
  samples(): Locator {
    return this.dialog().getByTestId('ka-sample');
  }

  dryShards(): Locator {
    return this.dialog().getByTestId('ka-dry-shards');
  }

  confirmDb(): Locator {
    return this.dialog().getByTestId('ka-confirm-db');
  }

  /** The button that starts the real run ("Delete 42 keys"). */
  runButton(): Locator {
    return this.dialog().getByTestId('ka-run');
  }

  async run(): Promise<void> {
    await this.runButton().click();
  }

  runStatus(): Locator {
    return this.dialog().getByTestId('ka-run-status');
  }

  /** Waits for the run to end as `outcome`. */
  async waitForEnd(outcome: 'done' | 'cancelled' | 'failed', timeout = 60_000): Promise<void> {
    await expect(this.runStatus()).toHaveAttribute('data-outcome', outcome, { timeout });
    await this.expectStep('report');
  }

  /** A figure of the run, as a number: scanned, matched, acted, skipped, errors. */
  async runCount(figure: 'scanned' | 'matched' | 'acted' | 'skipped' | 'errors'): Promise<number> {
    const text = await this.dialog().getByTestId(`ka-run-${figure}`).innerText();
    return Number(text.replace(/,/g, ''));
  }

  /** The report's time as shown ("0.02 s"). */
  async runSeconds(): Promise<string> {
    return this.dialog().getByTestId('ka-run-seconds').innerText();
  }

  headline(): Locator {
    return this.dialog().getByTestId('ka-run-headline');
  }

  async cancel(): Promise<void> {
    await this.dialog().getByTestId('ka-run-cancel').click();
  }

  /** Goes on with a cut run from where it stopped. */
  async resume(): Promise<void> {
    await this.dialog().getByTestId('ka-resume').click();
  }

  /** Closes the report; the dialog goes. */
  async done(): Promise<void> {
    await this.dialog().getByTestId('ka-done').click();
    await expect(this.dialog()).toHaveCount(0);
  }

  /** The dialog alone, at the page's width (1280). */
  async screenshot(path: string): Promise<void> {
    await this.page.setViewportSize({ width: 1280, height: 900 });
    await this.page.screenshot({ path });
  }
}
