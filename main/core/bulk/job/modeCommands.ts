import type { Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import { refusedWhenQueued } from '../../pool/commandSupport';
import type { Refusal } from '../../redis/refusal';
import type { LoadMode } from '../types';

/**
 * The commands each mode cannot do without: swap switches staging in with SWAPDB and empties
 * staging and the old data with FLUSHDB; flush empties the target with FLUSHDB. Both are
 * @dangerous, so an ACL user without it (a managed service's usual user) has merge only.
 */
const NEEDS: Record<LoadMode, readonly (readonly string[])[]> = {
  swap: [
    ['SWAPDB', '0', '0'],
    ['FLUSHDB', 'ASYNC'],
  ],
  flush: [['FLUSHDB', 'ASYNC']],
  merge: [],
};

const MODES: readonly LoadMode[] = ['swap', 'flush', 'merge'];

function offer(mode: LoadMode, targetDb: number): string {
  if (mode === 'swap') return `--mode swap (a staging DB switched in with SWAPDB)`;
  if (mode === 'flush') return `--mode flush (DB ${targetDb} emptied with FLUSHDB first, then loaded)`;
  return `--mode merge (written straight into DB ${targetDb}: readers see the rows as they arrive, and keys the input lacks stay)`;
}

/** The refusals of the commands `mode` needs, each asked inside MULTI (refusedWhenQueued): nothing runs. */
export async function modeRefusals(redis: Redis, mode: LoadMode): Promise<Refusal[]> {
  const out: Refusal[] = [];
  for (const args of NEEDS[mode]) {
    const refused = await refusedWhenQueued(redis, args);
    if (refused !== undefined) out.push(refused);
  }
  return out;
}

/**
 * Throws VALIDATION, before anything is written, when the server refuses a command the mode
 * needs, naming it and the modes that can run here instead: better said at the start than met
 * at the switch, after the whole input was loaded into staging.
 */
export async function refuseModeWithout(redis: Redis, mode: LoadMode, targetDb: number, address: string): Promise<void> {
  const refused = await modeRefusals(redis, mode);
  if (refused.length === 0) return;
  const runnable: LoadMode[] = [];
  for (const other of MODES) {
    if (other !== mode && (await modeRefusals(redis, other)).length === 0) runnable.push(other);
  }
  const why = refused.map((r) => `${r.command} is refused (${r.message})`).join('; ');
  const instead = runnable.length === 0 ? 'no mode can run here' : `what can run here: ${runnable.map((m) => offer(m, targetDb)).join(', or ')}`;
  throw new AppError('VALIDATION', `Mode ${mode} is not possible on ${address}: ${why}. Nothing was written; ${instead}`, 'mode');
}
