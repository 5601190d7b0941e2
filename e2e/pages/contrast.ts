import type { Locator } from '@playwright/test';

/** What a colour check reads off one element: its colour (text, or an SVG shape's) and the background it sits on. */
export interface ColorPair {
  fg: string;
  bg: string;
  contrast: number;
  /** Relative luminance of the background, 0 (black) to 1 (white). */
  bgLuminance: number;
}

/**
 * The WCAG contrast of an element against the first opaque background behind it
 * (walking up its ancestors), from computed styles: `prop` is 'color' for text,
 * 'fill' or 'stroke' for SVG. Runs in the page, so it reads the theme actually applied.
 */
export function contrastOf(target: Locator, prop: 'color' | 'fill' | 'stroke' = 'color'): Promise<ColorPair> {
  return target.evaluate((el, p) => {
    const parse = (c: string): [number, number, number, number] => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (m?.[1] === undefined) throw new Error(`unreadable colour ${c}`);
      const [r = 0, g = 0, b = 0, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [r, g, b, a];
    };
    const lum = ([r, g, b]: [number, number, number, number]) => {
      const ch = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    const fg = getComputedStyle(el).getPropertyValue(p);
    let node: Element | null = el;
    let bg = 'rgb(255, 255, 255)';
    while (node !== null) {
      const c = getComputedStyle(node).backgroundColor;
      if (parse(c)[3] > 0.5) {
        bg = c;
        break;
      }
      node = node.parentElement;
    }
    const [l1, l2] = [lum(parse(fg)), lum(parse(bg))];
    const contrast = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    return { fg, bg, contrast, bgLuminance: l2 };
  }, prop);
}
