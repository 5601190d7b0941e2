import { toInfoSnapshot } from '../../core/info/infoSnapshot';
import { parseInfo } from '../../core/info/parseInfo';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

export function serverHandlers({ profiles, pool }: CoreServices): Pick<Handlers, 'server.info'> {
  return {
    'server.info': async ({ profileId, db }, { session }) => {
      const { id, profile: p } = sessionProfile(profiles, profileId, session);
      // The monitoring connection: short timeout and no offline queue, so a dead
      // server answers with an error now instead of queueing polls.
      const redis = await pool.monitoring(id, db ?? p.spec.db);
      const text = await redis.info();
      return toInfoSnapshot(parseInfo(text), Date.now());
    },
  };
}
