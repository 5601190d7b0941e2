#!/usr/bin/env -S node --max-semi-space-size=8
// Runs the CLI compiled into dist/main/ by `npm run build:main`, which `npm install` runs
// through the package's `prepare`: no TypeScript is compiled at start-up, so `--version`
// costs a Node start and a cron job's `cacheboard load` pays for the load, not for tsx.
// A build older than the sources is refused, never run: the message says what to run.
// (`npx tsx main/cli/index.ts …` runs the sources themselves while developing.)
// --max-semi-space-size=8 (MB; Node 20's default is 16): a load allocates short-lived buffers
// fast, and a smaller young generation keeps a 1M-record CSV load's peak RSS near 175 MB instead
// of ~200, at no measurable cost in throughput. `npm start` and the benches pass the same flag.
import { BUILD_COMMAND, OUT_DIR, staleness } from '../scripts/build-freshness.js';

const stale = await staleness();
if (stale !== undefined) {
  process.stderr.write(`cacheboard: the compiled CLI is out of date (${stale}).\nRun \`${BUILD_COMMAND}\` (\`npm install\` runs it too) and try again.\n`);
  process.exit(1);
}
await import(`../${OUT_DIR}/cli.js`);
