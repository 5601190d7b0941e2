import { configAccess, readProfileConfig, rewriteProfileConfig, setProfileConfig } from '../../core/config';
import { refuseReadOnlyData } from '../../core/pool/readOnlyProfile';
import type { StoredProfile } from '../../core/pool/types';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

type ConfigHandlers = Pick<Handlers, 'config.get' | 'config.set' | 'config.rewrite'>;

/** A read-only-data profile's settings are not changed here (refuseReadOnlyData). */
const refuseConfigWrites = (profile: StoredProfile): void =>
  refuseReadOnlyData(profile, { refused: 'its configuration cannot be changed here', instead: 'change its settings' });

/**
 * CONFIG of a profile's nodes. Reads go over the session's own connections (an analyst's carry
 * the profile's analyst ACL user, which may lack CONFIG: that is a refusal note, not an error);
 * writes are ops-only by the contract, refused on a read-only-data profile, and each node's outcome
 * is an audit entry of its own (action config.set, as a bulk load's save-config change is).
 */
export function configHandlers({ profiles, pool, metrics, audit }: Pick<CoreServices, 'profiles' | 'pool' | 'metrics' | 'audit'>): ConfigHandlers {
  const access = (connectionId: string) => configAccess(pool, metrics, connectionId);
  return {
    'config.get': async ({ profileId }, { session }) => readProfileConfig(access(sessionProfile(profiles, profileId, session).connectionId)),

    'config.set': async ({ profileId, name, value, target }, { session }) => {
      const { connectionId, profile } = sessionProfile(profiles, profileId, session);
      refuseConfigWrites(profile);
      return setProfileConfig(access(connectionId), target, name, value, (address) => auditFor(audit, session, 'config.set', address));
    },

    'config.rewrite': async ({ profileId, target }, { session }) => {
      const { connectionId, profile } = sessionProfile(profiles, profileId, session);
      refuseConfigWrites(profile);
      return rewriteProfileConfig(access(connectionId), target, (address) => auditFor(audit, session, 'config.rewrite', address));
    },
  };
}
