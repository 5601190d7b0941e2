import { expect, type Locator, type Page } from '@playwright/test';
import { openRoute } from './openRoute';

/** The metrics domain's page, labelled Overview in the UI (route `#/overview`). */
export class MetricsPage {
  constructor(private readonly page: Page) {}

  async open(profileName?: string): Promise<void> {
    await openRoute(this.page, 'overview');
    if (profileName !== undefined) {
      await this.page.getByLabel('Profile').selectOption({ label: profileName });
    }
    await expect(this.page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  }

  /** Runs BGSAVE or BGREWRITEAOF on the selected node through its confirm step; waits for its result row. */
  async runAction(action: 'bgsave' | 'bgrewriteaof'): Promise<void> {
    const button = this.page.getByTestId(`action-${action}`);
    await expect(button).toBeEnabled();
    await button.click();
    await this.page.getByTestId('action-confirm').click();
    await expect(this.page.getByTestId('actions-table').locator(`tr[data-action="${action}"]`).first()).toBeVisible({ timeout: 15_000 });
  }

  stat(name: 'version' | 'role' | 'clients' | 'memory' | 'ops' | 'uptime'): Locator {
    return this.page.getByTestId(`stat-${name}`);
  }

  keyspace(): Locator {
    return this.page.getByTestId('keyspace-table');
  }

  /** A node's card, by the host:port the server reports. */
  card(address: string): Locator {
    return this.page.locator(`[data-testid="node-card"][data-address="${address}"]`);
  }

  /** A node's box in the topology graph. */
  topologyNode(address: string): Locator {
    return this.page.locator(`[data-testid="topology-node"][data-address="${address}"]`);
  }

  chart(name: 'ops' | 'memory' | 'clients' | 'network' | 'lag'): Locator {
    return this.page.getByTestId(`chart-${name}`);
  }

  /** A node card's status pill: "up", "slow" or "unreachable". */
  status(address: string): Locator {
    return this.card(address).getByTestId('node-status');
  }

  /** An active alert of one kind about one node. */
  activeAlert(kind: string, address: string): Locator {
    return this.page.getByTestId('alerts').locator(`[data-testid="alert"][data-kind="${kind}"]`).filter({ hasText: address });
  }

  resolvedAlert(kind: string, address: string): Locator {
    return this.page.getByTestId('alerts').locator(`[data-testid="alert-resolved"][data-kind="${kind}"]`).filter({ hasText: address });
  }
}
