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

/**
 * The characters of an element's text a reader can see: those laid out inside every box that
 * clips them (overflow other than visible) between them and the element, less the last
 * character's width where a clipping box ends in an ellipsis. innerText would give all of it.
 */
export function visibleText(el: Locator): Promise<string> {
  return el.evaluate((root) => {
    const clips: { el: Element; left: number; right: number }[] = [];
    const clipOf = (node: Element): { left: number; right: number }[] => {
      const out: { left: number; right: number }[] = [];
      for (let e: Element | null = node; e !== null; e = e === root ? null : e.parentElement) {
        const cached = clips.find((c) => c.el === e);
        if (cached !== undefined) {
          out.push(cached);
          continue;
        }
        const style = getComputedStyle(e);
        if (style.overflowX === 'visible') continue;
        const r = e.getBoundingClientRect();
        const cut = style.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth ? parseFloat(style.fontSize) : 0;
        const clip = { el: e, left: r.left, right: r.right - cut };
        clips.push(clip);
        out.push(clip);
      }
      return out;
    };
    let text = '';
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (parent === null) continue;
      const bounds = clipOf(parent);
      const value = n.nodeValue ?? '';
      const range = document.createRange();
      for (let i = 0; i < value.length;) {
        const step = (value.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
        range.setStart(n, i);
        range.setEnd(n, i + step);
        const r = range.getBoundingClientRect();
        if (r.width > 0 && bounds.every((b) => r.left >= b.left - 0.5 && r.right <= b.right + 0.5)) text += value.slice(i, i + step);
        i += step;
      }
    }
    return text;
  });
}
