import { runSampling } from '../../core/sampling/runSampling';
import { samplingWhere } from '../../core/sampling/samplingWhere';
import type { Jobs } from '../../core/jobKinds';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

type SamplingHandlers = Pick<Handlers, 'sampling.start'>;

/** Starting a run; its progress stream and cancel call are every job's (./jobs.ts). */
export function samplingHandlers({ profiles, pool, jobs }: Pick<CoreServices, 'profiles' | 'pool'> & { jobs: Pick<Jobs, 'sampling'> }): SamplingHandlers {
  const { sampling } = jobs;
  return {
    'sampling.start': async ({ profileId, db, ...options }, { session }) => {
      // An analyst's run probes the keys as the profile's analyst Redis user, when it has one.
      const { connectionId, profile } = sessionProfile(profiles, profileId, session);
      const target = db ?? profile.spec.db;
      // A cluster: every master, merged; a sentinel profile: the master the sentinels name now.
      const where = await samplingWhere(pool, connectionId, profile.spec, target);
      const jobId = sampling.start(`${profileId}/${target}`, (id, emit, signal) =>
        runSampling({ options: { ...options, db: target }, ...where(`cacheboard:sampling:${id}`) }, emit, signal),
      );
      return { jobId };
    },
  };
}
