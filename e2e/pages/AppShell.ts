import { expect, type Locator, type Page } from '@playwright/test';
import { ConnectionsPage } from './ConnectionsPage';

/**
 * The frame around every page: sign-in, the navigation and the header's profile
 * picker. Moves between pages by the navigation (no reload), so it works on any
 * server, not only the suite's own.
 */
export class AppShell {
  constructor(private readonly page: Page) {}

  async signIn(origin: string, user: string, password: string): Promise<void> {
    await this.page.goto(origin);
    const form = this.page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('User name').fill(user);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await expect(this.page.getByTestId('session-badge')).toContainText(`Signed in as ${user}`);
  }

  navLinks(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  }

  /** Every page's label, in navigation order. */
  async pageLabels(): Promise<string[]> {
    // The label only: a page some roles may not open carries its role tag ("ops") beside it.
    return (await this.navLinks().locator('.nav-label').allTextContents()).map((t) => t.trim());
  }

  async go(label: string): Promise<void> {
    await this.navLinks().filter({ hasText: label }).first().click();
    await expect(this.page.getByRole('heading', { level: 1, name: label })).toBeVisible();
  }

  /** Adds a profile for a server on the Connections page of `origin` (signed in as ops), and makes it the header's. */
  async addProfile(origin: string, name: string, server: { host: string; port: number }): Promise<void> {
    await this.page.goto(`${origin}/#/connections`);
    await new ConnectionsPage(this.page).add({ name, host: server.host, port: String(server.port) });
    await this.selectProfile(name);
  }

  /** The role tag of a page's link ("ops"), or none. */
  navRole(route: string): Locator {
    return this.page.getByTestId(`nav-role-${route}`);
  }

  async selectProfile(name: string): Promise<void> {
    await this.page.getByLabel('Profile', { exact: true }).selectOption({ label: name });
  }
}
