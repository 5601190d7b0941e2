import { Pool } from './pool';
import type { ProfileSpec } from './types';

/**
 * A pool that knows one profile, `spec` under `id`: for work with no app pool (the
 * CLI) or whose connections must stay apart from the app's (a trial through the
 * latency proxy).
 */
export function singleProfilePool(spec: ProfileSpec, id: string): Pool {
  return new Pool({ resolve: (asked) => (asked === id ? { id, source: 'config', spec } : undefined) });
}
