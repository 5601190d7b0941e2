import type { Page } from '@playwright/test';

/** What a colour check reads off one element: its colour (text, or an SVG shape's) and the background it sits on. */
export interface ColorPair {
  /** What was read, for the assertion's message. */
  what: string;
  fg: string;
  bg: string;
  contrast: number;
  /** Relative luminance of the background, 0 (black) to 1 (white). */
  bgLuminance: number;
}

/** One element to read: the first match of `css` (or every match, with `all`), inside `within` when given. */
export interface Probe {
  what: string;
  css: string;
  /** 'color' for text, 'fill' or 'stroke' for SVG. */
  prop?: 'color' | 'fill' | 'stroke';
  all?: boolean;
}

/**
 * The WCAG contrast of each probe's element(s) against the first opaque background behind
 * it (walking up its ancestors), from computed styles, so it reads the theme actually applied.
 *
 * Every probe is read in ONE synchronous step in the page. The Overview redraws its charts
 * on every poll, replacing their SVG nodes: an element found by one protocol call and read
 * by the next (Locator.evaluate) could be detached in between, and a detached element's
 * computed style is empty ("unreadable colour "). Within one task of the page's event loop
 * the DOM cannot change, so what is read is one consistent frame. A probe that matches
 * nothing fails with its name.
 */
export function readContrasts(page: Page, probes: readonly Probe[]): Promise<ColorPair[]> {
  return page.evaluate((list) => {
    const parse = (c: string): [number, number, number, number] => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (m?.[1] === undefined) throw new Error(`unreadable colour "${c}"`);
      const [r = 0, g = 0, b = 0, a = 1] = m[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [r, g, b, a];
    };
    const lum = ([r, g, b]: [number, number, number, number]) => {
      const ch = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    const read = (what: string, el: Element, prop: string) => {
      const fg = getComputedStyle(el).getPropertyValue(prop);
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
      return { what, fg, bg, contrast, bgLuminance: l2 };
    };
    return list.flatMap((p) => {
      const found = p.all === true ? [...document.querySelectorAll(p.css)] : [document.querySelector(p.css)].filter((e) => e !== null);
      if (found.length === 0) throw new Error(`nothing matches ${p.what} (${p.css})`);
      return found.map((el) => read(p.what, el, p.prop ?? 'color'));
    });
  }, probes);
}
