// Finds an Electron executable without require('electron'): since Electron 45
// that require downloads the binary when it is missing, which is slow or
// impossible offline. Shared by scripts/run-electron.js and the e2e specs.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the electron package's installer puts the executable, per platform. */
function platformExecutable(platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

function isFile(p) {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * @param {{ root?: string, env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform }} [opts]
 * @returns {{ path: string, reason?: undefined } | { path: null, reason: string }}
 */
export function findElectronBinary(opts = {}) {
  const root = opts.root ?? repoRoot;
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;

  if (env.ELECTRON_PATH) {
    const p = path.resolve(env.ELECTRON_PATH);
    return isFile(p) ? { path: p } : { path: null, reason: `ELECTRON_PATH=${env.ELECTRON_PATH} is not a file` };
  }

  const pkgDir = path.join(root, 'node_modules', 'electron');
  if (!existsSync(path.join(pkgDir, 'package.json'))) {
    return { path: null, reason: 'the electron package is not installed (node_modules/electron is missing)' };
  }
  const pathTxt = path.join(pkgDir, 'path.txt');
  const relative = existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : platformExecutable(platform);
  // Honoured the way the electron package itself honours it.
  const distDir = env.ELECTRON_OVERRIDE_DIST_PATH ? path.resolve(env.ELECTRON_OVERRIDE_DIST_PATH) : path.join(pkgDir, 'dist');
  const candidate = path.join(distDir, relative);
  if (isFile(candidate)) return { path: candidate };
  return {
    path: null,
    reason: `no executable at ${path.relative(root, candidate) || candidate} (the electron package's binary was never downloaded)`,
  };
}

export const HOW_TO_GET_ELECTRON = 'set ELECTRON_PATH to an Electron 45 executable, or run `npx install-electron` where the network allows';
