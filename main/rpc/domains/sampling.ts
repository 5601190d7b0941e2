import { AppError } from '../../../app/errors';
import { runSampling } from '../../core/sampling/runSampling';
import { isFinalSamplingEvent } from '../../core/sampling/samplingJobs';
import { samplingWhere } from '../../core/sampling/samplingWhere';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';
import { connectionOf } from './sessionProfile';

type SamplingHandlers = Pick<Handlers, 'sampling.start' | 'sampling.cancel' | 'sampling.progress'>;

export function samplingHandlers({ profiles, pool, sampling }: Pick<CoreServices, 'profiles' | 'pool' | 'sampling'>): SamplingHandlers {
  return {
    'sampling.start': async ({ profileId, db, ...options }, { session }) => {
      // An analyst's run probes the keys as the profile's analyst Redis user, when it has one.
      const connId = connectionOf(profiles, profileId, session);
      const profile = profiles.get(connId);
      if (!profile) throw new AppError('NOT_FOUND', `No connection profile with id "${profileId}"`, 'profileId');
      const target = db ?? profile.spec.db;
      // A cluster: every master, merged; a sentinel profile: the master the sentinels name now.
      const where = await samplingWhere(pool, connId, profile.spec, target);
      const jobId = sampling.start(`${profileId}/${target}`, (id, emit, signal) =>
        runSampling({ options: { ...options, db: target }, ...where(`cacheboard:sampling:${id}`) }, emit, signal),
      );
      return { jobId };
    },

    'sampling.cancel': ({ jobId }) => ({ cancelled: sampling.cancel(jobId) }),

    'sampling.progress': ({ jobId }, sink) =>
      sampling.subscribe(jobId, (e) => {
        sink.push(e);
        // done, cancelled and failed are the last word: end the stream so the client knows.
        if (isFinalSamplingEvent(e)) queueMicrotask(() => sink.end());
      }),
  };
}
