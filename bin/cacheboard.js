#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx cacheboard` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../main/cli/index.ts');
