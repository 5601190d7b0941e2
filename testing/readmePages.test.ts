import { describe, expect, it } from 'vitest';
import { anchors, readRepoFile } from './markdown';

// The Pages table moved from the README to docs/pages.md; a page's section may live in its topic's file (console.md).
const pages = readRepoFile('docs/pages.md');

/** The Pages table's rows: the page cell and the description cell. */
function pageRows(): { page: string; text: string }[] {
  const table = pages.slice(pages.indexOf('| page | what it does |'));
  return table
    .split('\n')
    .slice(2)
    .filter((l) => l.startsWith('| '))
    .map((l) => {
      const [page = '', text = ''] = l.slice(2, -2).split(' | ');
      return { page, text };
    });
}

describe('docs/pages.md', () => {
  it("has a Pages table of short rows, one sentence each, each linking to its page's section", () => {
    const rows = pageRows();
    expect(rows.length).toBeGreaterThanOrEqual(9);
    for (const { page, text } of rows) {
      const link = /^\[([^\]]+)\]\(([\w-]+\.md)?#([^)]+)\)$/.exec(page);
      expect(link, `${page}: the page name links to its section`).not.toBeNull();
      const target = link?.[2] === undefined ? pages : readRepoFile(`docs/${link[2]}`);
      expect(anchors(target).has(link?.[3] ?? ''), `${page}: its section exists`).toBe(true);
      expect(text.length, `${page}: ${text}`).toBeLessThanOrEqual(140);
      // One sentence: it ends with the only full stop followed by a space or the end.
      expect(text.match(/\.(\s|$)/g), `${page}: ${text}`).toHaveLength(1);
      expect(text.endsWith('.')).toBe(true);
    }
  });
});
