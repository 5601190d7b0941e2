import { dirname, join } from 'node:path';
import { CheckpointStore } from '../../core/keys/actions/checkpoints';
import { KeyActionRuns, type KeyActionHooks } from '../../core/keys/actions/keyActionRuns';
import type { IndexRegistry } from '../../core/keys/index/indexRegistry';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

export type { KeyActionHooks };

type KeyActionHandlers = Pick<Handlers, 'keys.actions.start' | 'keys.actions.resumable'>;

/**
 * Bulk key actions (their progress and cancel are every job's, ./jobs.ts). Ops only (the
 * contract's role; the dispatcher refuses analysts); the runs themselves are core's
 * (KeyActionRuns), audited under the session's user. Checkpoints live in the data dir's
 * `key-actions/` folder, beside profiles.json.
 */
export function keyActionHandlers(
  { profiles, pool, jobs, audit }: Pick<CoreServices, 'profiles' | 'pool' | 'jobs' | 'audit'>,
  store = new CheckpointStore(join(dirname(profiles.file), 'key-actions')),
  hooks: KeyActionHooks = {},
  /** The Keys page's indexes: a delete's run tells them which keys may be gone. */
  indexes?: Pick<IndexRegistry, 'afterAction'>,
): KeyActionHandlers {
  const runs = new KeyActionRuns({ pool, jobs: jobs.keyActions, store, indexes, hooks });
  return {
    'keys.actions.start': async (input, { session }) => {
      const { connectionId, profile } = sessionProfile(profiles, input.profileId, session);
      return runs.start(input, connectionId, profile, (action, where) => auditFor(audit, session, action, where));
    },
    'keys.actions.resumable': async ({ profileId }, { session }) => {
      sessionProfile(profiles, profileId, session);
      return runs.resumable(profileId);
    },
  };
}
