import { expect, type Locator, type Page } from '@playwright/test';
import { openRoute } from './openRoute';

export type Counter = 'received' | 'delivered' | 'dropped' | 'held';
export type NamesField = 'channels' | 'patterns' | 'shardChannels';

/** The Pub/Sub page, as an engineer drives it. */
export class PubSubPage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string): Promise<void> {
    await openRoute(this.page, 'pubsub');
    if (profileName !== undefined) await this.page.getByLabel('Profile').selectOption({ label: profileName });
    await expect(this.page.getByRole('heading', { name: 'Pub/Sub', level: 1 })).toBeVisible();
    await expect(this.page.getByTestId('pubsub-subscribe')).toBeVisible();
  }

  /** One name a line, typed as names are shown (escapes). */
  async names(field: NamesField, lines: string[]): Promise<void> {
    await this.page.getByTestId(`pubsub-${field}`).fill(lines.join('\n'));
  }

  /** Subscribe and wait until every node says its names are subscribed. */
  async subscribe(): Promise<void> {
    await this.page.getByTestId('pubsub-subscribe').click();
    await expect(this.page.getByTestId('pubsub-node').first()).toBeVisible();
    await expect(this.page.locator('[data-testid="pubsub-node"]:not([data-state="live"])')).toHaveCount(0);
  }

  nodes(): Locator {
    return this.page.getByTestId('pubsub-node');
  }

  rows(): Locator {
    return this.page.getByTestId('pubsub-row');
  }

  counter(name: Counter): Locator {
    return this.page.getByTestId(`pubsub-${name}`);
  }

  /** A counter's exact value (data-value), or undefined before the first event. */
  async value(name: Counter): Promise<number | undefined> {
    const v = await this.counter(name).getAttribute('data-value');
    return v === null || v === '' ? undefined : Number(v);
  }

  async publish(channel: string, payload: string, shard = false): Promise<Locator> {
    await this.page.getByTestId('pubsub-publish-channel').fill(channel);
    await this.page.getByTestId('pubsub-publish-payload').fill(payload);
    if (shard) await this.page.getByTestId('pubsub-publish-shard').check();
    await this.page.getByTestId('pubsub-publish-send').click();
    return this.page.getByTestId('pubsub-published');
  }

  async filter(text: string): Promise<void> {
    await this.page.getByTestId('pubsub-filter').fill(text);
  }

  detail(): Locator {
    return this.page.getByTestId('pubsub-detail');
  }

  /** The payload view of the selected message. */
  async view(as: 'Text' | 'JSON' | 'Hex'): Promise<void> {
    await this.page.getByTestId('pubsub-view').getByRole('button', { name: as }).click();
  }

  overviewRow(channel: string): Locator {
    return this.page.locator(`[data-testid="pubsub-overview-row"][data-channel="${channel.replace(/["\\]/g, '\\$&')}"]`);
  }

  async refreshOverview(): Promise<void> {
    await this.page.getByTestId('pubsub-overview-refresh').click();
  }

  /**
   * The whole page: the viewport grown to the page's height and scrolled to the top, so the
   * sidebar and the top bar stay where they belong (a full-page shot of a scrolled window
   * draws them halfway down); the pointer off the charts, so no tooltip is in the shot.
   */
  async screenshot(path: string): Promise<void> {
    const size = this.page.viewportSize() ?? { width: 1280, height: 800 };
    await this.page.evaluate(() => window.scrollTo(0, 0));
    const height = await this.page.evaluate(() => document.documentElement.scrollHeight);
    await this.page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
    await this.page.mouse.move(0, 0);
    await this.page.screenshot({ path });
    await this.page.setViewportSize(size);
  }
}
