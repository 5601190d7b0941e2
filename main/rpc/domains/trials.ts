import { AppError } from '../../../app/errors';
import { currentMasterSpec } from '../../core/pool/sentinels';
import { refuseCluster } from '../../core/pool/topology';
import { poolConnector } from '../../core/trials/connector';
import { runTrial } from '../../core/trials/runTrial';
import { isFinalTrialEvent } from '../../core/trials/trialJobs';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';

type TrialHandlers = Pick<Handlers, 'trials.start' | 'trials.cancel' | 'trials.progress'>;

export function trialHandlers({ profiles, pool, trials, audit }: Pick<CoreServices, 'profiles' | 'pool' | 'trials' | 'audit'>): TrialHandlers {
  return {
    'trials.start': async ({ profileId, db, ...options }, { session }) => {
      const profile = profiles.get(profileId);
      if (!profile) throw new AppError('NOT_FOUND', `No connection profile with id "${profileId}"`, 'profileId');
      refuseCluster(profile.spec, 'Pipeline trials');
      // A sentinel profile's trial runs on the master the sentinels name now.
      const spec = await currentMasterSpec(profile.spec);
      // One trial per server at a time: two at once would each measure the other's load.
      const target = `${spec.host}:${spec.port}`;
      const holder = trials.runningOn(target);
      if (holder !== undefined) throw new AppError('CONFLICT', `Trial ${holder} is already running on ${target}; wait for it or cancel it`);
      const trail = auditFor(audit, session, `trial.${options.trial}`, target);
      const jobId = trials.start(target, async (id, emit, signal) => {
        trail('started', id);
        const end = await runTrial({ runId: id, settings: { ...options, db: db ?? spec.db }, spec, connector: poolConnector(spec, pool, profileId) }, emit, signal);
        trail(end.kind === 'done' ? 'ok' : end.kind === 'cancelled' ? 'cancelled' : 'failed', end.kind === 'failed' ? end.error.message : id);
        return end;
      });
      return { jobId };
    },

    'trials.cancel': ({ jobId }) => ({ cancelled: trials.cancel(jobId) }),

    'trials.progress': ({ jobId }, sink) =>
      trials.subscribe(jobId, (e) => {
        sink.push(e);
        // done, cancelled and failed are the last word: end the stream so the client knows.
        if (isFinalTrialEvent(e)) queueMicrotask(() => sink.end());
      }),
  };
}
