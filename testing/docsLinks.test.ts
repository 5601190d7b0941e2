import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, proseLines, readRepoFile } from './markdown';

const root = new URL('..', import.meta.url).pathname;
const docs = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const files = ['README.md', 'CONTRIBUTING.md', ...docs];

/** Every link target of a markdown file: `[text](target)` and the `src`/`srcset` of its pictures, outside code. */
function targets(markdown: string): string[] {
  const prose = proseLines(markdown)
    .join('\n')
    // Inline code is text, not a link, even when it looks like one.
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)|\b(?:src|srcset)="([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^(https?:|mailto:)/.test(target)) return undefined;
  const [path = '', anchor] = target.split('#');
  const resolved = path === '' ? file : normalize(join(dirname(file), path));
  if (resolved.startsWith('..') || !existsSync(join(root, resolved))) return `${file}: ${target}: no file ${resolved}`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md') || statSync(join(root, resolved)).isDirectory()) return `${file}: ${target}: an anchor into a file that is not markdown`;
  return anchors(readRepoFile(resolved)).has(anchor) ? undefined : `${file}: ${target}: ${resolved} has no heading #${anchor}`;
}

describe('the README and docs/', () => {
  it('resolve every relative link to a file, and every #anchor to a heading of that file (GitHub slugs)', () => {
    const all = files.flatMap((file) => targets(readRepoFile(file)).map((target) => ({ file, target })));
    // The pages link to one another and to their pictures: an empty list would mean the parser found nothing.
    expect(all.filter((l) => l.target.includes('#')).length).toBeGreaterThan(20);
    expect(all.filter((l) => l.target.endsWith('.png')).length).toBeGreaterThan(10);
    expect(all.map((l) => brokenLink(l.file, l.target)).filter((e) => e !== undefined)).toEqual([]);
  });

  it('keep the README the front door: under 10 KB, with the two commands and a link to every docs/ topic', () => {
    const readme = readRepoFile('README.md');
    expect(Buffer.byteLength(readme)).toBeLessThan(10 * 1024);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    const linked = new Set(targets(readme).map((t) => t.split('#')[0]));
    expect(docs.filter((d) => !linked.has(d))).toEqual([]);
  });
});
