import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * vitest's globalSetup: the tests run the bin as a user does, so they run the compiled CLI in
 * dist/main/, which the bin refuses once a source has changed. Rebuild it first when it is
 * stale (esbuild, well under a second); an up-to-date build is left alone.
 */
export default function buildMainIfStale(): void {
  const script = fileURLToPath(new URL('../scripts/build-main.js', import.meta.url));
  const r = spawnSync(process.execPath, [script, '--if-stale'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building dist/main/ failed (${r.status}): ${r.stderr}${r.stdout}`);
}
