import { keyBytes } from '../../core/keys/keyRef';
import { decodeClient, decodeKey } from '../../core/keys/decode/decodeKey';
import { DecodeRunner } from '../../core/keys/decode/decodeRunner';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

/**
 * keys.decode, read as the session's connection to the profile (an analyst's carries the
 * profile's analyst Redis user). One decode worker per set of handlers, started on first use.
 */
export function keysDecodeHandlers({ profiles, pool }: Pick<CoreServices, 'profiles' | 'pool'>, runner = new DecodeRunner()): Pick<Handlers, 'keys.decode'> {
  return {
    'keys.decode': async ({ profileId, db, key, as, compression }, { session }) => {
      const { id, profile } = sessionProfile(profiles, profileId, session);
      const redis = await decodeClient(pool, id, profile.spec, db ?? profile.spec.db);
      return decodeKey(redis, runner, { key: keyBytes(key), as, compression });
    },
  };
}
