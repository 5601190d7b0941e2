import { expect, type Locator, type Page } from '@playwright/test';
import { ConnectionsPage } from './ConnectionsPage';
import { openRoute } from './openRoute';

/** base64url of a key's bytes, as the Keys page's links carry it. */
export function keyParam(key: string | Buffer): string {
  return Buffer.from(key).toString('base64url');
}

/** The Keys page: index bar, namespace tree, find bar and key list (the value panel is KeyValuePanel). */
export class KeysPage {
  constructor(private readonly page: Page) {}

  /** Opens `#/keys` (with an optional query, e.g. `profile=…&key=…`) and waits for the page. */
  async open(query = '', profileName?: string): Promise<void> {
    await openRoute(this.page, query === '' ? 'keys' : `keys?${query}`);
    if (profileName !== undefined) await this.page.getByLabel('Profile', { exact: true }).selectOption({ label: profileName });
    await expect(this.page.getByRole('heading', { level: 1, name: 'Keys' })).toBeVisible();
    await expect(this.page.getByTestId('keys-page')).toBeVisible();
  }

  /** Adds a profile for a spawned server and opens the page on it; returns the profile's name. */
  async openOn(prefix: string, server: { host: string; port: number }): Promise<string> {
    const name = await new ConnectionsPage(this.page).addServer(prefix, server);
    await this.open('', name);
    return name;
  }

  /** The id of the profile the header points at (deep links name profiles by id). */
  async profileId(): Promise<string> {
    return this.page.getByLabel('Profile', { exact: true }).inputValue();
  }

  /** "complete", "incomplete", "scanning", "no tree" or "failed". */
  indexState(): Locator {
    return this.page.getByTestId('keys-index-state');
  }

  indexLine(): Locator {
    return this.page.getByTestId('keys-index-line');
  }

  /** How old an incomplete index is ("built 12s ago"); a complete one says it in its line ("indexed 40 keys, 12s ago"). */
  indexAge(): Locator {
    return this.page.getByTestId('keys-index-age');
  }

  /** The keep rule: "kept between visits · re-scanned on opening after 15m". */
  indexKept(): Locator {
    return this.page.getByTestId('keys-index-kept');
  }

  /** What a bulk action left stale in the index, while the server checks it. */
  indexStale(): Locator {
    return this.page.getByTestId('keys-index-stale');
  }

  buildButton(): Locator {
    return this.page.getByTestId('keys-build');
  }

  async waitForCompleteTree(): Promise<void> {
    await expect(this.indexState()).toHaveText('complete', { timeout: 30_000 });
  }

  async refresh(): Promise<void> {
    await this.page.getByTestId('keys-build').click();
  }

  async selectDb(db: number): Promise<void> {
    await this.page.getByTestId('keys-db').selectOption(String(db));
  }

  tree(): Locator {
    return this.page.getByTestId('keys-tree');
  }

  /** A folder's row by its escaped prefix text (e.g. "user:"). */
  folder(prefix: string): Locator {
    return this.tree().locator(`[data-testid="keys-tree-folder"][data-prefix="${prefix.replace(/["\\]/g, '\\$&')}"]`);
  }

  folderCount(prefix: string): Locator {
    return this.folder(prefix).getByTestId('keys-tree-count');
  }

  /** Selects a folder (its keys fill the list) and opens it in the tree. */
  async openFolder(prefix: string): Promise<void> {
    await this.folder(prefix).locator('.keys-tree-name').click();
  }

  /** The tree's leaf keys (keys that end at an open level). */
  treeKeys(): Locator {
    return this.tree().getByTestId('keys-tree-key');
  }

  /** Scrolls the (virtual) tree down until a button with this name is drawn. */
  async scrollTreeTo(buttonName: string): Promise<void> {
    // A tree row ("Show more" too): the tree is walked by its items.
    const button = this.tree().getByRole('treeitem', { name: buttonName });
    for (let i = 0; i < 200 && (await button.count()) === 0; i++) await this.tree().evaluate((el) => el.scrollBy(0, el.clientHeight / 2));
    await expect(button).toBeVisible();
  }

  /** The whole DB's count, beside "All keys". */
  allKeysCount(): Locator {
    return this.page.getByTestId('keys-tree-all').locator('.keys-count');
  }

  async allKeys(): Promise<void> {
    await this.page.getByTestId('keys-tree-all').click();
  }

  /** Opens one key by its exact name, typed escaped (`bin:\xff`). */
  async openExact(name: string): Promise<void> {
    await this.page.getByTestId('keys-exact').fill(name);
    await this.page.getByTestId('keys-exact-open').click();
  }

  /** Lists keys matching a glob, typed escaped. */
  async match(pattern: string): Promise<void> {
    await this.page.getByTestId('keys-match').fill(pattern);
    await this.page.getByTestId('keys-match-find').click();
  }

  matchBox(): Locator {
    return this.page.getByTestId('keys-match');
  }

  /** Filters by type and waits until the list (and its status) is the filtered one. */
  async filterType(type: string | ''): Promise<void> {
    await this.page.getByTestId('keys-type').selectOption(type);
    await expect(this.listStatus()).toHaveAttribute('data-type', type);
  }

  /** Keeps the keys without a TTL, or all, and waits until the list (and its status) is for that. */
  async noTtl(on: boolean): Promise<void> {
    await this.page.getByTestId('keys-nottl').setChecked(on);
    await expect(this.listStatus()).toHaveAttribute('data-no-ttl', String(on));
  }

  /** Sorts the list by a column (its head); a second click flips the order. */
  async sortBy(column: 'name' | 'ttl' | 'memory'): Promise<void> {
    await this.page.getByTestId(`keys-sort-${column}`).click();
  }

  fieldError(field: 'key' | 'match'): Locator {
    return this.page.getByTestId(`field-error-${field}`);
  }

  list(): Locator {
    return this.page.getByTestId('keys-list');
  }

  rows(): Locator {
    return this.list().getByTestId('keys-row');
  }

  /** A list row by the key's bytes. */
  row(key: string | Buffer): Locator {
    return this.list().locator(`[data-key="${Buffer.from(key).toString('base64')}"]`);
  }

  listStatus(): Locator {
    return this.page.getByTestId('keys-list-status');
  }

  /** Waits until the list has read every match, and returns how many it holds (the list is virtual: rows out of view are not in the DOM). */
  async listedCount(): Promise<number> {
    // "complete: N keys" (not "incomplete", which holds the word too).
    await expect(this.listStatus()).toHaveText(/(^|\s)complete: [\d,]+ key/, { timeout: 15_000 });
    const m = /(?:^|\s)complete: ([\d,]+) key/.exec(await this.listStatus().innerText());
    if (m?.[1] === undefined) throw new Error(`no count in the list status: ${await this.listStatus().innerText()}`);
    return Number(m[1].replace(/,/g, ''));
  }

  /** Waits until the list has read every match, and returns the texts of the rows in view (all of a short list). */
  async listedTexts(): Promise<string[]> {
    await expect(this.listStatus()).toContainText('complete', { timeout: 15_000 });
    return this.rows().locator('.keys-name-text').allTextContents();
  }

  /** The column holding the open key's value panel: `data-key` is the open key's base64. */
  openColumn(): Locator {
    return this.page.getByTestId('keys-open');
  }

  async expectOpen(key: string | Buffer): Promise<void> {
    await expect(this.openColumn()).toHaveAttribute('data-key', Buffer.from(key).toString('base64'));
  }

  async stats(): Promise<Locator> {
    const panel = this.page.getByTestId('keys-folder-stats');
    await panel.getByTestId('keys-stats').click();
    return panel;
  }

  /** Grows the viewport to show the whole page and shoots it. */
  async screenshot(path: string): Promise<void> {
    await this.page.setViewportSize({ width: 1440, height: 860 });
    await this.page.screenshot({ path });
  }
}
