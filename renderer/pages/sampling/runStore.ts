import type { SampleMethod } from '../../../app/schemas/sampling';
import { EndedViews } from '../../lib/endedViews';
import { readJson, sessionStore, writeJson } from '../../lib/storage';
import type { FollowedJob } from '../../lib/useJobRun';
import { EMPTY_RUN, foldRun, type RunView } from './runView';

/** The last run started on one profile, as this tab remembers it. */
export interface KeptRun {
  jobId: string;
  profileId: string;
  profileName: string;
  method: SampleMethod;
  /** The DB the run was asked for (the profile's when left empty). */
  db: number;
}

type KeptRuns = Record<string, KeptRun>;

const KEY = 'cacheboard.sampling.runs';

function parseRun(raw: unknown): KeptRun | undefined {
  const v = (raw ?? {}) as Partial<KeptRun>;
  if (typeof v.jobId !== 'string' || typeof v.profileId !== 'string' || typeof v.profileName !== 'string') return undefined;
  if ((v.method !== 'sample' && v.method !== 'census') || typeof v.db !== 'number') return undefined;
  return { jobId: v.jobId, profileId: v.profileId, profileName: v.profileName, method: v.method, db: v.db };
}

function parseRuns(raw: unknown): KeptRuns | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const out: KeptRuns = {};
  for (const [profileId, value] of Object.entries(raw)) {
    const run = parseRun(value);
    if (run !== undefined && run.profileId === profileId) out[profileId] = run;
  }
  return out;
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;

/** The last run started on this profile in this tab (sessionStorage: another tab keeps its own). */
export function readRun(profileId: string, storage: Store = sessionStore()): KeptRun | undefined {
  return readJson(storage, KEY, parseRuns)?.[profileId];
}

/** Remember `run` as its profile's last (undefined forgets the profile's run). */
export function writeRun(profileId: string, run: KeptRun | undefined, storage: Store = sessionStore()): void {
  const runs = { ...readJson(storage, KEY, parseRuns) };
  if (run === undefined) delete runs[profileId];
  else runs[profileId] = run;
  writeJson(storage, KEY, runs);
}

/** Runs as the page follows them; the views of those that ended stay in memory. */
export const samplingRuns: FollowedJob<'sampling.progress', RunView> = {
  stream: 'sampling.progress',
  fold: foldRun,
  empty: EMPTY_RUN,
  ended: new EndedViews(),
};
