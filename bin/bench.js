#!/usr/bin/env node
// The benches are TypeScript run through tsx (a dev tool); the CLI they time is the compiled
// one, so dist/main/ is brought up to date first, as `npm install` leaves it for a user.
import { register } from 'tsx/esm/api';
import { buildMainIfStale } from '../scripts/build-main.js';

if (await buildMainIfStale()) process.stderr.write('bench: rebuilt dist/main/ from the sources\n');
register();
await import('../bench/index.ts');
