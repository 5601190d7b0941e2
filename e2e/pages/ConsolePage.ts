import { expect, type Locator, type Page } from '@playwright/test';
import { ConnectionsPage } from './ConnectionsPage';
import { openRoute } from './openRoute';

/** The Console page, as an ops engineer drives it: typing, completing, running, reading replies. */
export class ConsolePage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string, origin = ''): Promise<void> {
    await openRoute(this.page, 'console', origin);
    if (profileName !== undefined) await this.page.getByLabel('Profile', { exact: true }).selectOption({ label: profileName });
    await expect(this.page.getByRole('heading', { level: 1, name: 'Console' })).toBeVisible();
    await expect(this.page.getByTestId('console-page')).toBeVisible();
  }

  /** Adds a profile for a spawned server and opens the console on it; returns the profile's name. */
  async openOn(prefix: string, server: { host: string; port: number }): Promise<string> {
    const name = await new ConnectionsPage(this.page).addServer(prefix, server);
    await this.open(name);
    return name;
  }

  input(): Locator {
    return this.page.getByTestId('console-input');
  }

  /** Types into the command line key by key (autocomplete follows each key). */
  async type(text: string): Promise<void> {
    await this.input().click();
    await this.input().pressSequentially(text);
  }

  /**
   * Replaces the input's text with `lines` (one command each), runs them with Enter, and
   * returns the last line's entry: that very entry (by its place), not whichever is last later.
   */
  async run(...lines: string[]): Promise<Locator> {
    const before = await this.entries().count();
    const after = before + lines.length;
    if (after > 50) throw new Error('the transcript keeps 50 commands: a test that runs more cannot find its entries by place');
    await this.input().fill(lines.join('\n'));
    await this.input().press('Enter');
    await expect(this.entries()).toHaveCount(after);
    return this.entries().nth(after - 1);
  }

  /** Runs one line and waits for its answer (done, held, failed or cancelled). */
  async answer(line: string): Promise<Locator> {
    const entry = await this.run(line);
    await expect(entry).not.toHaveAttribute('data-status', 'running', { timeout: 15_000 });
    return entry;
  }

  entries(): Locator {
    return this.page.getByTestId('console-entry');
  }

  suggestions(): Locator {
    return this.page.getByRole('listbox', { name: 'Completions' });
  }

  option(value: string): Locator {
    return this.suggestions().getByRole('option', { name: new RegExp(`^${value}\\b`) });
  }

  syntax(): Locator {
    return this.page.getByTestId('console-syntax');
  }

  inputError(): Locator {
    return this.page.getByTestId('console-input-error');
  }

  /** The drawn lines of an entry's (first) reply tree. */
  lines(entry: Locator): Locator {
    return entry.getByTestId('console-reply-tree').getByRole('listitem');
  }

  /** The fold toggle of the line whose text starts with `label` (e.g. "1)") at a depth. */
  toggle(entry: Locator, depth: number, label: string): Locator {
    return this.lines(entry)
      .and(this.page.locator(`[data-depth="${depth}"]`))
      .filter({ has: this.page.locator('.cn-label', { hasText: label }) })
      .first()
      .getByTestId('console-fold');
  }

  held(): Locator {
    return this.page.getByTestId('console-held');
  }

  async confirmHeld(typed: string): Promise<void> {
    await this.held().getByTestId('console-held-input').fill(typed);
    await this.held().getByTestId('console-held-run').click();
  }

  db(): Locator {
    return this.page.getByTestId('console-db');
  }

  prompt(): Locator {
    return this.page.getByTestId('console-prompt');
  }

  async protocol(resp: 2 | 3): Promise<void> {
    await this.page
      .getByTestId('console-protocol')
      .getByRole('button', { name: `RESP${resp}` })
      .click();
  }

  async target(label: RegExp | string): Promise<void> {
    const select = this.page.getByTestId('console-target');
    // Drawn once console.targets has answered (a lone server has none).
    await expect(select).toBeVisible({ timeout: 15_000 });
    const options = await select.locator('option').allTextContents();
    const want = options.find((o) => (typeof label === 'string' ? o.startsWith(label) : label.test(o)));
    if (want === undefined) throw new Error(`no target ${String(label)} among ${options.join(' | ')}`);
    await select.selectOption({ label: want });
  }

  /**
   * The page shot whole: the window made as tall as the transcript needs (it scrolls inside
   * the page, which is the window's height), then given back its 800 px.
   */
  async screenshot(path: string): Promise<void> {
    const more = await this.page.getByTestId('console-transcript').evaluate((el) => {
      el.scrollTo(0, 0);
      return Math.max(0, el.scrollHeight - el.clientHeight);
    });
    const width = this.page.viewportSize()?.width ?? 1280;
    await this.page.setViewportSize({ width, height: 800 + Math.ceil(more) });
    await this.page.screenshot({ path });
    await this.page.setViewportSize({ width, height: 800 });
  }
}
