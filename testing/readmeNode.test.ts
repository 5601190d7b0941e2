import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// npm's own range checker (a dependency of the tool chain, not of ours): what `npm install` uses to warn EBADENGINE.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const read = (file: string): string => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** The set-up guide's paragraph on the Node version (docs/deployment.md, moved from the README): from "Needs Node" to the end of its paragraph. */
function nodeParagraph(): string {
  const readme = read('docs/deployment.md');
  const at = readme.indexOf('Needs Node');
  expect(at).toBeGreaterThanOrEqual(0);
  return readme.slice(at, readme.indexOf('\n\n', at)).replace(/\s+/g, ' ');
}

describe("the set-up guide's Node version", () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;

  it("quotes package.json's engines range, and the lowest Node it allows", () => {
    const text = nodeParagraph();
    expect(text).toContain(`\`${engines}\``);
    const lowest = semver.minVersion(engines)?.version ?? '';
    expect(text).toContain(`Needs Node ${lowest.replace(/\.0$/, '')} or later`);
  });

  it("has the README's short line name that same lowest Node", () => {
    const lowest = semver.minVersion(engines)?.version ?? '';
    expect(read('README.md').replace(/\s+/g, ' ')).toContain(`Needs Node ${lowest.replace(/\.0$/, '')} or later`);
  });

  it('names exactly the locked packages whose engines exclude that lowest Node (what npm install warns about)', () => {
    const lowest = semver.minVersion(engines)?.version ?? '';
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } }> };
    const warned = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.engines?.node !== undefined && !semver.satisfies(lowest, p.engines.node))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(warned.length).toBeGreaterThan(0);
    const text = nodeParagraph();
    const named = /warns `EBADENGINE` for (\w+) packages/.exec(text)?.[1];
    const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9 };
    expect(words[named ?? '']).toBe(new Set(warned).size);
    for (const name of warned) expect(text).toContain(`\`${name}\``);
  });
});
