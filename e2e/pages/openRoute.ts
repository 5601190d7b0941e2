import type { Page } from '@playwright/test';
import { APP_ENTRY_URL } from '../../main/electron/rendererFiles';
import { electronAppOf } from '../appFixture';

/**
 * Goes to `#/<route>` of the app under test. On the web, `/#/...` resolves against the
 * project's baseURL (or `origin`, another server). The desktop window has no baseURL:
 * it lives on app://cacheboard/index.html, so the route is taken from there.
 */
export async function openRoute(page: Page, route: string, origin = ''): Promise<void> {
  const desktop = origin === '' && electronAppOf(page) !== undefined;
  await page.goto(desktop ? `${APP_ENTRY_URL}#/${route}` : `${origin}/#/${route}`);
}
