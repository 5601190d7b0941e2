// Is dist/main/ (the compiled main/) the build of the sources as they are now?
// bin/cacheboard.js asks on every start, so this module loads nothing but node:fs and node:path
// (node:crypto only when a file's size or mtime moved), and reads only the manifest and a stat
// of each input: 2-7 ms for the ~400 files of a build (main/, app/, package.json and the
// inlined zod, so upgrading it makes the build stale too).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = 'dist/main';
export const MANIFEST = `${OUT_DIR}/build.json`;
export const BUILD_COMMAND = 'npm run build:main';

/**
 * @typedef {{ size: number, mtimeMs: number, sha1: string }} InputRecord
 * @typedef {{ version: string, builtAt: string, inputs: Record<string, InputRecord> }} Manifest
 */

/** @param {string} root @param {string} file repo-relative @returns {Promise<InputRecord>} */
export async function inputRecord(root, file) {
  const abs = path.join(root, file);
  const st = statSync(abs);
  return { size: st.size, mtimeMs: st.mtimeMs, sha1: await sha1Of(abs) };
}

/** @param {string} abs */
async function sha1Of(abs) {
  // Imported here (~2 ms): a start whose inputs kept their size and mtime never needs it.
  const { createHash } = await import('node:crypto');
  return createHash('sha1').update(readFileSync(abs)).digest('hex');
}

/** @param {string} root @returns {Manifest | undefined} */
export function readManifest(root = repoRoot) {
  try {
    return JSON.parse(readFileSync(path.join(root, MANIFEST), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Why the build in dist/main/ is not the build of the sources now, or undefined when it is.
 * An input whose size and mtime are those recorded is unchanged; one whose mtime moved (a
 * checkout, `git stash pop`) is compared by content, so only a real change makes it stale.
 * A source the build did not read cannot matter until an input imports it, and then that
 * input has changed.
 * @param {string} root
 * @returns {Promise<string | undefined>}
 */
export async function staleness(root = repoRoot) {
  const manifest = readManifest(root);
  if (manifest === undefined || typeof manifest.inputs !== 'object') return `${OUT_DIR}/ has not been built`;
  for (const [file, rec] of Object.entries(manifest.inputs)) {
    const abs = path.join(root, file);
    let st;
    try {
      st = statSync(abs);
    } catch {
      return `${file} was removed since ${OUT_DIR}/ was built`;
    }
    if (st.size === rec.size && st.mtimeMs === rec.mtimeMs) continue;
    if (st.size !== rec.size || (await sha1Of(abs)) !== rec.sha1) return `${file} changed since ${OUT_DIR}/ was built`;
  }
  return undefined;
}
