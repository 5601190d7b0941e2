import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; a repeat gets -1, -2… */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (m === null) continue;
    const base = (m[1] ?? '').toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    let slug = base;
    for (let i = 1; out.has(slug); i++) slug = `${base}-${i}`;
    out.add(slug);
  }
  return out;
}

/** The Pages table's rows: the page cell and the description cell. */
function pageRows(): { page: string; text: string }[] {
  const section = readme.split(/^## Pages$/m)[1]?.split(/^## /m)[0] ?? '';
  const table = section.slice(section.indexOf('| page | what it does |'));
  return table
    .split('\n')
    .slice(2)
    .filter((l) => l.startsWith('| '))
    .map((l) => {
      const [page = '', text = ''] = l.slice(2, -2).split(' | ');
      return { page, text };
    });
}

describe('the README', () => {
  it('links only to headings it has', () => {
    const known = anchors(readme);
    const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1] ?? '');
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((a) => !known.has(a))).toEqual([]);
  });

  it('has a Pages table of short rows, one sentence each, each linking to its page\'s section below', () => {
    const rows = pageRows();
    expect(rows.length).toBeGreaterThanOrEqual(9);
    const known = anchors(readme);
    for (const { page, text } of rows) {
      const link = /^\[([^\]]+)\]\(#([^)]+)\)$/.exec(page);
      expect(link, `${page}: the page name links to its section`).not.toBeNull();
      expect(known.has(link?.[2] ?? '')).toBe(true);
      expect(text.length, `${page}: ${text}`).toBeLessThanOrEqual(140);
      // One sentence: it ends with the only full stop followed by a space or the end.
      expect(text.match(/\.(\s|$)/g), `${page}: ${text}`).toHaveLength(1);
      expect(text.endsWith('.')).toBe(true);
    }
  });
});
