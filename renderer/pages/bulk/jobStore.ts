import { readJson, sessionStore, writeJson } from '../../lib/storage';

/**
 * The load this tab is following, kept in sessionStorage: a job outlives the page
 * (leave and come back mid-load), and the server replays its history to whoever
 * subscribes again. sessionStorage, not localStorage: another tab starts its own flow.
 */
export interface KeptJob {
  jobId: string;
  /** What was started, for the header while the first events are on their way. */
  file: string;
  mode: string;
  targetDb: number;
  profileName: string;
}

const KEY = 'cacheboard.bulk.job';

function parseJob(raw: unknown): KeptJob | undefined {
  const v = (raw ?? {}) as Partial<KeptJob>;
  if (typeof v.jobId !== 'string' || typeof v.file !== 'string' || typeof v.mode !== 'string') return undefined;
  if (typeof v.targetDb !== 'number' || typeof v.profileName !== 'string') return undefined;
  return { jobId: v.jobId, file: v.file, mode: v.mode, targetDb: v.targetDb, profileName: v.profileName };
}

/** A kept job, or undefined when there is none or storage refuses us. */
export function readJob(storage: Pick<Storage, 'getItem'> | undefined = sessionStore()): KeptJob | undefined {
  return readJson(storage, KEY, parseJob);
}

/** Remembering is a convenience: if storage refuses, the load still runs, only a revisit can't find it. */
export function writeJob(job: KeptJob | undefined, storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined = sessionStore()): void {
  writeJson(storage, KEY, job);
}
