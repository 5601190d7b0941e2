import type { Jobs } from '../../core/jobKinds';
import { startTrial } from '../../core/trials/trialRuns';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { storedProfile } from './sessionProfile';

type TrialHandlers = Pick<Handlers, 'trials.start'>;

/** Starting a trial (core's startTrial, audited under the session's user); its progress stream and cancel call are every job's (./jobs.ts). */
export function trialHandlers({
  profiles,
  pool,
  jobs,
  audit,
}: Pick<CoreServices, 'profiles' | 'pool' | 'audit'> & { jobs: Pick<Jobs, 'trials'> }): TrialHandlers {
  return {
    'trials.start': async (input, { session }) => {
      const profile = storedProfile(profiles, input.profileId);
      return startTrial({ pool, trials: jobs.trials }, input, profile, (action, where) => auditFor(audit, session, action, where));
    },
  };
}
