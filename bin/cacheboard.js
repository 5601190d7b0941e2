#!/usr/bin/env -S node --max-semi-space-size=8
// Runs the TypeScript CLI directly through tsx, so `npx cacheboard` works right after `npm install`.
// --max-semi-space-size=8 (MB; Node 20's default is 16): a load allocates short-lived buffers
// fast, and a smaller young generation keeps a 1M-record CSV load's peak RSS near 175 MB instead
// of ~200, at no measurable cost in throughput. `npm start` and the benches pass the same flag.
import { register } from 'tsx/esm/api';

register();
await import('../main/cli/index.ts');
