// Compiles main/ for Node into dist/main/: what the CLI, `cacheboard serve` and the Electron
// main process run, so none of them compiles TypeScript at start-up.
//   cli.js       bin/cacheboard.js imports it; each command is its own chunk (main/cli/index.ts
//                imports them with import()), so `--version` loads no Redis client and `load`
//                no web server.
//   electron.js  the Electron main process (package.json "main"), sharing the CLI's chunks: one
//                compiled core for both.
//   preload.cjs  the sandboxed preload, all inlined: it can only require('electron').
//   decodeWorker.js  the keys.decode worker thread (main/core/keys/decode/decodeRunner.ts finds it
//                beside itself, as every module is flat in dist/main/).
//   build.json   every input with its size, mtime and SHA-1, so the bin can refuse a stale build.
// ESM with splitting: esbuild only splits ESM, and Electron >= 28 loads an ESM main.
// `--if-stale` builds only when build.json does not match the sources.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inputRecord, MANIFEST, OUT_DIR, repoRoot, staleness } from './build-freshness.js';

// Node 20 is the oldest the package supports; Electron 45 ships Node 22 and Chromium 142.
const NODE_TARGET = 'node20';
const CHROME_TARGET = 'chrome140';

// zod 4 is ~230 ESM files: resolved and compiled one by one they cost a start ~40 ms, inlined
// ~15 ms. It is plain ESM with no files of its own to find, so it is safe to inline; every
// other package stays an import of node_modules (CommonJS ones would need require() shims).
const INLINED_PACKAGES = ['zod'];
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !INLINED_PACKAGES.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

/** @type {import('esbuild').BuildOptions} */
const common = {
  absWorkingDir: repoRoot,
  bundle: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
  // Inputs are recorded as found under the package (node_modules/zod/…), not at the real path
  // behind a symlinked node_modules, so the manifest stays true where the package is copied.
  preserveSymlinks: true,
  tsconfig: path.join(repoRoot, 'tsconfig.json'),
};

/** Builds dist/main/ from the sources; returns the output files' names. */
export async function buildMain() {
  const { build } = await importEsbuild();
  const outdir = path.join(repoRoot, OUT_DIR);
  mkdirSync(outdir, { recursive: true });
  const results = await Promise.allSettled([
    build({
      ...common,
      entryPoints: { cli: 'main/cli/index.ts', electron: 'main/electron/main.ts', decodeWorker: 'main/core/keys/decode/decodeWorker.ts' },
      outdir,
      format: 'esm',
      splitting: true,
      // Flat, two levels below the root like the sources (main/cli/serve.ts finds
      // ../../dist/renderer from import.meta.url, from either place).
      chunkNames: 'chunk-[hash]',
      platform: 'node',
      target: NODE_TARGET,
      external,
    }),
    build({
      ...common,
      entryPoints: { preload: 'main/electron/preload.ts' },
      outdir,
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      platform: 'browser',
      target: CHROME_TARGET,
      external: ['electron'],
    }),
  ]);
  // esbuild has already printed the errors themselves; only the verdict is left.
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) throw new Error(`build-main: ${failed.length} of ${results.length} bundles failed`);
  const metas = results.map((r) => /** @type {PromiseFulfilledResult<import('esbuild').BuildResult>} */ (r).value.metafile);

  const outputs = new Set(metas.flatMap((m) => Object.keys(m?.outputs ?? {})).map((f) => path.basename(f)));
  // Chunks of an earlier build: their hashed names never match a new chunk, so they would pile up.
  for (const f of readdirSync(outdir)) if (!outputs.has(f)) rmSync(path.join(outdir, f), { force: true });

  const files = [...new Set(metas.flatMap((m) => Object.keys(m?.inputs ?? {})))].sort();
  const inputs = Object.fromEntries(await Promise.all(files.map(async (f) => [f, await inputRecord(repoRoot, f)])));
  const version = pkg.version;
  // Written last: until it is, a bin starting mid-build sees the old manifest and calls the build stale.
  writeFileSync(path.join(repoRoot, MANIFEST), `${JSON.stringify({ version, builtAt: new Date().toISOString(), inputs }, null, 1)}\n`);
  return [...outputs].sort();
}

/** esbuild is a devDependency: imported only to build, so `--if-stale` on an up-to-date build needs none. */
async function importEsbuild() {
  try {
    return await import('esbuild');
  } catch (e) {
    if (/** @type {{ code?: string }} */ (e).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new Error(`build-main: esbuild is not installed (a devDependency): install with them (\`npm ci\`) to build ${OUT_DIR}/`, { cause: e });
  }
}

/** Builds unless dist/main/ already is the build of the sources; returns whether it built. */
export async function buildMainIfStale() {
  if ((await staleness()) === undefined) return false;
  await buildMain();
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const ifStale = process.argv.includes('--if-stale');
  const t0 = performance.now();
  try {
    const built = ifStale ? await buildMainIfStale() : (await buildMain(), true);
    const ms = Math.round(performance.now() - t0);
    console.log(built ? `built ${OUT_DIR}/ (cli.js, electron.js, preload.cjs) in ${ms} ms` : `${OUT_DIR}/ is up to date`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
