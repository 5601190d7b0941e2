// `npm run desktop`: starts the built app (dist/main/, dist/renderer/) in Electron.
import { spawn } from 'node:child_process';
import { BUILD_COMMAND, staleness } from './build-freshness.js';
import { findElectronBinary, HOW_TO_GET_ELECTRON, repoRoot } from './electron-binary.js';

const found = findElectronBinary();
if (found.path === null) {
  console.error(`Electron binary not available: ${found.reason}; ${HOW_TO_GET_ELECTRON}.`);
  process.exit(1);
}
// The main process runs dist/main/electron.js: never an older build than the sources.
const stale = await staleness();
if (stale !== undefined) {
  console.error(`The compiled main process is out of date (${stale}); run \`${BUILD_COMMAND}\` (or \`npm run build\`) first.`);
  process.exit(1);
}

const env = { ...process.env };
// Set by some tools (and inherited from Electron parents); it would make the binary act as plain Node.
delete env.ELECTRON_RUN_AS_NODE;

const child = spawn(found.path, [repoRoot, ...process.argv.slice(2)], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (e) => {
  console.error(`Could not start Electron at ${found.path}: ${e.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
