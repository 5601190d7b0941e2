import { AppError } from '../../../app/errors';
import { profileTrial } from '../../core/trials/profileTrial';
import { runTrial } from '../../core/trials/runTrial';
import type { Jobs } from '../../core/jobKinds';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { storedProfile } from './sessionProfile';

type TrialHandlers = Pick<Handlers, 'trials.start'>;

/** Starting a trial; its progress stream and cancel call are every job's (./jobs.ts). */
export function trialHandlers({ profiles, pool, jobs, audit }: Pick<CoreServices, 'profiles' | 'pool' | 'audit'> & { jobs: Pick<Jobs, 'trials'> }): TrialHandlers {
  const { trials } = jobs;
  return {
    'trials.start': async ({ profileId, db, ...options }, { session }) => {
      const profile = storedProfile(profiles, profileId);
      const { spec, hashTag, connect } = await profileTrial(pool, profileId, profile.spec, { trial: options.trial, db });
      // One trial per server at a time: two at once would each measure the other's load.
      const target = `${spec.host}:${spec.port}`;
      const holder = trials.runningOn(target);
      if (holder !== undefined) throw new AppError('CONFLICT', `Trial ${holder} is already running on ${target}; wait for it or cancel it`);
      const trail = auditFor(audit, session, `trial.${options.trial}`, target);
      const jobId = trials.start(target, async (id, emit, signal) => {
        trail('started', id);
        const connector = connect();
        const settings = { ...options, db: db ?? spec.db };
        const end = await runTrial({ runId: id, settings, spec, connector, ...(hashTag === undefined ? {} : { hashTag }) }, emit, signal).finally(() => connector.close());
        trail(end.kind === 'done' ? 'ok' : end.kind === 'cancelled' ? 'cancelled' : 'failed', end.kind === 'failed' ? end.error.message : id);
        return end;
      });
      return { jobId };
    },
  };
}
