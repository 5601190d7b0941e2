import { AppError } from '../../../app/errors';
import type { TrialPipe } from './trialPipe';

/**
 * Every trial's keys start with this; a run's own add its id, `cacheboard:trial:<run>:`,
 * or on a cluster a hash tag, `cacheboard:trial:{<tag>}:`.
 */
export const SCRATCH_ROOT = 'cacheboard:trial:';

/**
 * The run's scratch prefix. The id is checked: the prefix goes into SCAN MATCH,
 * where * ? [ \ are glob syntax (braces are not, so a tag matches literally).
 * `hashTag`: the id goes between braces, so Redis Cluster hashes only it and every
 * scratch key lands in one slot, on one master (cluster.c keyHashSlot).
 */
export function scratchPrefix(id: string, hashTag = false): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new AppError('INTERNAL', `trial run id "${id}" is not safe in a SCAN pattern`);
  return hashTag ? `${SCRATCH_ROOT}{${id}}:` : `${SCRATCH_ROOT}${id}:`;
}

const SCAN_COUNT = '1000';

/**
 * Last-resort TTL of every trial scratch key (SET … PX, counters seeded with it), should
 * the process die before its cleanup: long enough for any variant to finish, short
 * enough that a killed run's keys do not stay. The next run sweeps them first anyway.
 */
export const SCRATCH_TTL_MS = 3_600_000;

/**
 * The keys these trials write: `<root><run or {tag}>:key:<n>` (pipeline, load) and `…:counter:<n>`
 * (multiplex). Audience scratch, under the same root by default, looks otherwise (`…r<12 hex>:<n>`,
 * with its own TTL and cleanup): the sweep leaves it.
 */
const TRIAL_KEY = new RegExp(`^${SCRATCH_ROOT}[^:]+:(?:key|counter):\\d+$`);

/**
 * UNLINK what earlier trials left under SCRATCH_ROOT in `db` (a killed run's keys, TRIAL_KEY),
 * audience scratch excepted. Only once the preflight found no other trial on the server (preflight.ts),
 * so no running trial's keys go. Returns how many went.
 */
export function sweepScratch(pipe: TrialPipe, db: number): Promise<number> {
  return scanScratch(pipe, db, SCRATCH_ROOT, (keys) => {
    const stale = keys.filter((k) => TRIAL_KEY.test(k));
    return stale.length === 0 ? Promise.resolve(0) : pipe.integer('UNLINK', ...stale);
  });
}

/**
 * UNLINK every key under `prefix` in `db` (SCAN MATCH, so it works on a DB of any
 * size without blocking the server) and return how many went. Leaves `pipe` on `db`.
 */
export function removeScratch(pipe: TrialPipe, db: number, prefix: string): Promise<number> {
  return scanScratch(pipe, db, prefix, (keys) => pipe.integer('UNLINK', ...keys));
}

/** How many keys are under `prefix` in `db`, without touching them. */
export function countScratch(pipe: TrialPipe, db: number, prefix: string): Promise<number> {
  return scanScratch(pipe, db, prefix, (keys) => Promise.resolve(keys.length));
}

async function scanScratch(pipe: TrialPipe, db: number, prefix: string, each: (keys: string[]) => Promise<number>): Promise<number> {
  await pipe.call('SELECT', String(db));
  let cursor = '0';
  let total = 0;
  do {
    const [next, keys] = (await pipe.call('SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', SCAN_COUNT)) as [Buffer, Buffer[]];
    cursor = next.toString('latin1');
    if (keys.length > 0) total += await each(keys.map((k) => k.toString('latin1')));
  } while (cursor !== '0');
  return total;
}

/** SCAN calls the emptiness check makes before it treats a DB of leftovers as somebody's data. */
const MAX_CHECK_SCANS = 20;

/**
 * Whether `db` holds a key that is not a trial's: 0 for an empty DB or one holding
 * only scratch keys (a crashed earlier run's), else its DBSIZE. Looks at up to
 * ~20,000 keys: a DB with that many leftovers counts as somebody's, to be safe.
 */
export async function foreignKeys(pipe: TrialPipe, db: number): Promise<number> {
  await pipe.call('SELECT', String(db));
  const dbsize = await pipe.integer('DBSIZE');
  if (dbsize === 0) return 0;
  let cursor = '0';
  for (let i = 0; i < MAX_CHECK_SCANS; i++) {
    const [next, keys] = (await pipe.call('SCAN', cursor, 'COUNT', SCAN_COUNT)) as [Buffer, Buffer[]];
    if (keys.some((k) => !k.toString('latin1').startsWith(SCRATCH_ROOT))) return dbsize;
    cursor = next.toString('latin1');
    if (cursor === '0') return 0;
  }
  return dbsize;
}
