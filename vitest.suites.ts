import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Which test files need real servers, decided from the sources so nobody keeps a list or
 * renames a file: a test is an integration test when it, or any module it reaches through
 * relative imports (static, re-exports and dynamic `import()`; `import type` runs nothing and
 * is not followed), starts something. A module starts something when it imports
 * `child_process` (redis-server, the CLI bin, any process) or opens a listening socket
 * (`createServer(`, `.listen({ port …})` / `.listen(0 …)`). The spawners in `testing/`
 * (redis.ts, replication.ts, sentinel.ts, cluster.ts, cli.ts) and every `*TestKit.ts` built on
 * them reach `main/core/redisProcess/` or `child_process` this way, so a test that uses one is
 * classified with no rule naming it. Every other test is a unit test, and the unit project's
 * setup (`testing/unitGuard.ts`) makes a process, a server or a TCP connection there fail loudly.
 */

const roots = ['app', 'main', 'renderer', 'testing'];
const here = dirname(fileURLToPath(import.meta.url));

const startsSomething = [/^\s*import\s+(?!type\b)[^;]*?from\s*['"](node:)?child_process['"]/m, /\bcreateServer\(/, /\.listen\(\s*(\{\s*port\b|0\b)/];
const relativeImport = /(?:^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s*)?|(?<!typeof\s+)\bimport\(\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx'), base].find(
    (candidate) => /\.(ts|tsx|mjs|js)$/.test(candidate) && existsSync(candidate),
  );
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Test files (relative to the repository root) split into those that start something and the rest. */
export function splitTests(root = here): { unit: string[]; integration: string[] } {
  const importers = new Map<string, Set<string>>();
  const starters: string[] = [];
  const seen = new Set<string>();
  const tests = roots.flatMap((dir) => testFiles(join(root, dir))).sort();
  const pending = [...tests];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    if (startsSomething.some((marker) => marker.test(source))) starters.push(file);
    for (const match of source.matchAll(relativeImport)) {
      const target = match[1] === undefined ? undefined : resolveImport(file, match[1]);
      if (!target) continue;
      importers.set(target, (importers.get(target) ?? new Set()).add(file));
      pending.push(target);
    }
  }
  // Everything that reaches a starter, walked backwards from the starters (cycles need no care).
  const starting = new Set<string>();
  for (let file = starters.pop(); file !== undefined; file = starters.pop()) {
    if (starting.has(file)) continue;
    starting.add(file);
    starters.push(...(importers.get(file) ?? []));
  }
  const unit: string[] = [];
  const integration: string[] = [];
  for (const file of tests) (starting.has(file) ? integration : unit).push(relative(root, file));
  return { unit, integration };
}
