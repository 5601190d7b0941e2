import type { Page } from '@playwright/test';

/** `docs/x.png` -> `docs/x-dark.png`: where a picture's dark twin goes. */
export function darkPath(path: string): string {
  return path.replace(/\.png$/, '-dark.png');
}

/**
 * A README picture in both themes: `shoot` runs with the system set to light (at `path`),
 * then to dark (at its `-dark` twin); the page follows the system (no theme pinned), and
 * every colour is a CSS variable, so nothing needs a redraw in between. The system's
 * setting is given back after.
 */
export async function shootBothThemes(page: Page, path: string, shoot: (path: string) => Promise<unknown>): Promise<void> {
  try {
    await page.emulateMedia({ colorScheme: 'light' });
    await shoot(path);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(darkPath(path));
  } finally {
    await page.emulateMedia({ colorScheme: null });
  }
}
