import type { CallArgs, CallOutput } from '../../../app/contract';
import { AppError } from '../../../app/errors';
import type { PoolApi, StoredProfile } from '../pool/types';
import { profileTrial } from './profileTrial';
import { runTrial } from './runTrial';
import type { TrialJobs } from './trialJobs';

/** One trial's audit entries: 'started' once its job runs, then its outcome. */
export type TrialTrail = (outcome: 'started' | 'ok' | 'failed' | 'cancelled', detail: string) => void;

/** Opens a trial's audit trail: the action (trial.<kind>) on `where` (the measured server). */
export type OpenTrialTrail = (action: string, where: string) => TrialTrail;

/**
 * Starts the trial `ask` describes on `profile` as a job; its job id. One trial per server at a
 * time: two at once would each measure the other's load.
 */
export async function startTrial(
  { pool, trials }: { pool: PoolApi; trials: TrialJobs },
  { profileId, db, ...options }: CallArgs<'trials.start'>,
  profile: StoredProfile,
  openTrail: OpenTrialTrail,
): Promise<CallOutput<'trials.start'>> {
  const { spec, hashTag, connect } = await profileTrial(pool, profileId, profile.spec, { trial: options.trial, db });
  const target = `${spec.host}:${spec.port}`;
  const holder = trials.runningOn(target);
  if (holder !== undefined) throw new AppError('CONFLICT', `Trial ${holder} is already running on ${target}; wait for it or cancel it`);
  const trail = openTrail(`trial.${options.trial}`, target);
  const jobId = trials.start(target, async (id, emit, signal) => {
    trail('started', id);
    const connector = connect();
    const settings = { ...options, db: db ?? spec.db };
    const end = await runTrial({ runId: id, settings, spec, connector, ...(hashTag === undefined ? {} : { hashTag }) }, emit, signal).finally(() =>
      connector.close(),
    );
    trail(end.kind === 'done' ? 'ok' : end.kind === 'cancelled' ? 'cancelled' : 'failed', end.kind === 'failed' ? end.error.message : id);
    return end;
  });
  return { jobId };
}
