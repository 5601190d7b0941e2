import { readFileSync } from 'node:fs';

/** A file of the repository, by its path from the root. */
export const readRepoFile = (file: string): string => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** The lines outside ``` fences: headings and links inside code are not markdown. */
export function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchor for each heading: lower case, punctuation dropped, spaces as hyphens; a repeat gets -1, -2… */
export function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const line of proseLines(markdown)) {
    const m = /^#{1,6} (.+)$/.exec(line);
    if (m === null) continue;
    const base = (m[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    let slug = base;
    for (let i = 1; out.has(slug); i++) slug = `${base}-${i}`;
    out.add(slug);
  }
  return out;
}
