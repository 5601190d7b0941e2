import { AppError } from '../../../app/errors';
import { currentMasterSpec } from '../../core/pool/sentinels';
import { refuseCluster } from '../../core/pool/topology';
import { connectionFor, runSampling } from '../../core/sampling/runSampling';
import { isFinalSamplingEvent } from '../../core/sampling/samplingJobs';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';
import { connectionOf } from './sessionProfile';

type SamplingHandlers = Pick<Handlers, 'sampling.start' | 'sampling.cancel' | 'sampling.progress'>;

export function samplingHandlers({ profiles, sampling }: Pick<CoreServices, 'profiles' | 'sampling'>): SamplingHandlers {
  return {
    'sampling.start': async ({ profileId, db, ...options }, { session }) => {
      // An analyst's run probes the keys as the profile's analyst Redis user, when it has one.
      const profile = profiles.get(connectionOf(profiles, profileId, session));
      if (!profile) throw new AppError('NOT_FOUND', `No connection profile with id "${profileId}"`, 'profileId');
      refuseCluster(profile.spec, 'Key sampling');
      // A sentinel profile samples the master the sentinels name now.
      const spec = await currentMasterSpec(profile.spec);
      const target = db ?? profile.spec.db;
      const jobId = sampling.start(`${profileId}/${target}`, (id, emit, signal) =>
        runSampling(
          { options: { ...options, db: target }, ...connectionFor(spec, target, `cacheboard:sampling:${id}`) },
          emit,
          signal,
        ),
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
