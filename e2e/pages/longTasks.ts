import type { Page } from '@playwright/test';

/**
 * The longest main-thread task (PerformanceObserver 'longtask', Chromium) since the page
 * loaded or the last reset, in ms: installed before the page's first script runs.
 */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

export const longestTask = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __longest: number }).__longest);

export const resetLongestTask = (page: Page): Promise<void> => page.evaluate(() => void ((window as unknown as { __longest: number }).__longest = 0));
