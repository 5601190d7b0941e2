import { AppError } from '../../../app/errors';
import { otherNamed } from '../redis/clientList';
import { readRefusal, unlessRefused } from '../redis/refusal';
import { parseInfo } from '../info/parseInfo';
import { SCRATCH_ROOT, foreignKeys } from './scratch';
import type { TrialPipe } from './trialPipe';

export interface PreflightInput {
  /** This trial's CLIENT SETNAME (`cacheboard:trial:<run>`): any other trial's name on the server is a conflict. */
  name: string;
  /** The DBs the trial writes to. */
  dbs: readonly number[];
  confirmNonEmpty: boolean;
  /** The input field that chose the DBs, for errors: `db`, or `dbs` when a later one is out of range. */
  dbField(db: number): string;
}

/**
 * What must hold before a trial writes anything: no other trial runs on the
 * server, it is a master (a replica refuses writes, and a trial on one would
 * only measure errors), every DB exists, and none holds somebody's keys unless
 * the caller confirmed it.
 */
export async function preflight(pipe: TrialPipe, input: PreflightInput): Promise<{ othersKnown: boolean }> {
  const listed = await otherTrial(pipe, input.name);
  const other = listed === 'unknown' ? undefined : listed;
  if (other !== undefined) {
    throw new AppError(
      'CONFLICT',
      `Trial ${other.run} is already running on ${pipe.address} (client ${other.addr}, another Cacheboard or CLI): two at once would each time the other's load. Wait for it or cancel it.`,
    );
  }
  // INFO refused (an ACL user without @dangerous): a replica then answers the first write with READONLY, which names it.
  const text = await unlessRefused(pipe.text('INFO', 'replication'), ['INFO'], () => undefined);
  const replication = parseInfo(text ?? '')['replication'] ?? {};
  if (replication['role'] === 'slave') {
    const master = `${replication['master_host'] ?? '?'}:${replication['master_port'] ?? '?'}`;
    throw new AppError(
      'READ_ONLY',
      `${pipe.address} is a replica (INFO replication role:slave, master ${master}): a trial writes scratch keys, which a replica refuses. Run it on the master.`,
      'profileId',
    );
  }
  for (const db of input.dbs) {
    let foreign: number;
    try {
      foreign = await foreignKeys(pipe, db);
    } catch (e) {
      if (e instanceof AppError && /DB index is out of range/i.test(e.message)) {
        throw new AppError('VALIDATION', `db ${db} does not exist on ${pipe.address} (see its "databases" setting)`, input.dbField(db));
      }
      throw e;
    }
    if (foreign > 0 && !input.confirmNonEmpty) {
      throw new AppError(
        'VALIDATION',
        `db ${db} on ${pipe.address} holds keys of its own (DBSIZE ${foreign}). A trial writes and removes only keys under ` +
          `${SCRATCH_ROOT}<run>:, but it loads the server while it runs. Confirm to run there anyway (confirmNonEmpty), or pick an empty DB.`,
        'confirmNonEmpty',
      );
    }
  }
  // Without CLIENT LIST, another process's trial could be running: its scratch keys are not for a sweep.
  return { othersKnown: listed !== 'unknown' };
}

const TRIAL_NAME_PREFIX = 'cacheboard:trial:';

/**
 * Another trial's connection on this server, whichever process opened it: trials name
 * theirs `cacheboard:trial:<run>`, and CLIENT LIST shows every client's name (the job
 * manager only knows this process's trials). Without CLIENT LIST (an analyst's ACL)
 * only that in-process check remains.
 */
async function otherTrial(pipe: TrialPipe, own: string): Promise<{ run: string; addr: string } | undefined | 'unknown'> {
  let list: string;
  try {
    list = await pipe.text('CLIENT', 'LIST');
  } catch (e) {
    if (e instanceof AppError && (e.code === 'NOPERM' || readRefusal(e, ['CLIENT', 'LIST']) !== undefined)) return 'unknown';
    throw e;
  }
  const other = otherNamed(list, TRIAL_NAME_PREFIX, own);
  return other === undefined ? undefined : { run: other.id, addr: other.addr };
}
