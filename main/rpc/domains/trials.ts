import { randomBytes } from 'node:crypto';
import { AppError } from '../../../app/errors';
import { poolConnector, privateConnector } from '../../core/trials/connector';
import { runTrial } from '../../core/trials/runTrial';
import { trialTarget } from '../../core/trials/trialTarget';
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
      // The job id is known only once the job starts, but a cluster's master (the one serving
      // the tag's slot) must be known before, for the one-trial-per-server check: a tag of its own.
      const tag = randomBytes(6).toString('base64url');
      const { spec, hashTag } = await trialTarget(pool, profileId, profile.spec, { trial: options.trial, db, tag });
      // One trial per server at a time: two at once would each measure the other's load.
      const target = `${spec.host}:${spec.port}`;
      const holder = trials.runningOn(target);
      if (holder !== undefined) throw new AppError('CONFLICT', `Trial ${holder} is already running on ${target}; wait for it or cancel it`);
      const trail = auditFor(audit, session, `trial.${options.trial}`, target);
      const jobId = trials.start(target, async (id, emit, signal) => {
        trail('started', id);
        // A cluster profile's pool connections go to the whole cluster: the master gets sockets of the run's own.
        const connector = hashTag === undefined ? poolConnector(spec, pool, profileId) : privateConnector(spec);
        const settings = { ...options, db: db ?? spec.db };
        const end = await runTrial({ runId: id, settings, spec, connector, ...(hashTag === undefined ? {} : { hashTag }) }, emit, signal).finally(() => connector.close());
        trail(end.kind === 'done' ? 'ok' : end.kind === 'cancelled' ? 'cancelled' : 'failed', end.kind === 'failed' ? end.error.message : id);
        return end;
      });
      return { jobId };
    },
  };
}
