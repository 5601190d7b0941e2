// Bundles the Electron main process and preload into dist-electron/.
// main.cjs: our app/ and main/ sources inlined, npm packages left to node_modules.
// preload.cjs: everything inlined; a sandboxed preload can only require('electron').
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist-electron');

// Electron 45 ships Node 22 and Chromium 142.
const NODE_TARGET = 'node22';
const CHROME_TARGET = 'chrome140';

/** @type {import('esbuild').BuildOptions} */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  tsconfig: path.join(root, 'tsconfig.json'),
};

rmSync(outdir, { recursive: true, force: true });

const results = await Promise.allSettled([
  build({
    ...common,
    entryPoints: { main: 'main/electron/main.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    target: NODE_TARGET,
    // Bare specifiers (electron, ioredis, fastify, zod, ...) stay require()s; relative imports are bundled.
    packages: 'external',
    external: ['electron'],
    // Sources are ESM; in a CJS bundle import.meta is empty, so give it this file's values.
    banner: {
      js: "const __cb_import_meta_url = require('node:url').pathToFileURL(__filename).href;",
    },
    define: {
      'import.meta.url': '__cb_import_meta_url',
      'import.meta.dirname': '__dirname',
      'import.meta.filename': '__filename',
    },
  }),
  build({
    ...common,
    entryPoints: { preload: 'main/electron/preload.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    platform: 'browser',
    target: CHROME_TARGET,
    external: ['electron'],
  }),
]);

// esbuild has already printed the errors themselves; only the verdict is left.
const failed = results.filter((r) => r.status === 'rejected');
if (failed.length > 0) {
  console.error(`build-electron: ${failed.length} of ${results.length} bundles failed`);
  process.exit(1);
}
console.log(`built ${path.relative(root, path.join(outdir, 'main.cjs'))} and ${path.relative(root, path.join(outdir, 'preload.cjs'))}`);
