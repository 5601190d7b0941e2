import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dataDirFrom } from './dataDir';
import type { Pool } from '../core/pool/pool';
import { singleProfilePool } from '../core/pool/singleProfilePool';
import { closeAllTunnels } from '../core/pool/sshVia';
import type { ProfileSpec } from '../core/pool/types';

/** The id the command line's one profile has in its pool. */
export const CLI_PROFILE = 'cli';

/** A pool that knows one profile, the one the flags describe, as CLI_PROFILE. */
export function cliPool(spec: ProfileSpec): Pool {
  return singleProfilePool(spec, CLI_PROFILE);
}

/**
 * `use` with a pool of the flags' profile, shut down afterwards whatever happens.
 * First, what a killed load left on that server is put right (cliLeftovers.ts).
 */
export async function withCliPool<T>(spec: ProfileSpec, use: (pool: Pool, profileId: string) => Promise<T>): Promise<T> {
  const pool = cliPool(spec);
  try {
    if (hasJournal(process.env)) await (await import('./cliLeftovers')).cleanCliLeftovers(spec, pool, CLI_PROFILE);
    return await use(pool, CLI_PROFILE);
  } finally {
    await pool.shutdown();
    // Every connection has released its tunnel by now; this only makes sure nothing is left listening.
    await closeAllTunnels();
  }
}

/** The same clean-up for a command that connects without the pool (demo-data's raw connection). */
export async function cleanLeftoversFirst(spec: ProfileSpec): Promise<void> {
  if (hasJournal(process.env)) await withCliPool(spec, async () => undefined);
}

/** Whether the data folder's journal holds any entry: when not (the usual case), no cleanup code is even loaded. */
function hasJournal(env: NodeJS.ProcessEnv): boolean {
  try {
    return readdirSync(join(dataDirFrom(env), 'journal')).some((n) => n.endsWith('.json'));
  } catch {
    return false;
  }
}
