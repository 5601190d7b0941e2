import type { Locator } from '@playwright/test';

/** How much of an element's content is hidden by its own box (scrollWidth − clientWidth): 0 when nothing is cut. */
export function hiddenWidth(el: Locator): Promise<number> {
  return el.evaluate((e) => e.scrollWidth - e.clientWidth);
}

/** The element's border box as laid out (page coordinates at the current scroll). */
export async function box(el: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await el.boundingBox();
  if (b === null) throw new Error(`${String(el)} is not laid out`);
  return b;
}
