import { serverInfo } from '../../core/metrics';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

export function serverHandlers({ profiles, pool }: CoreServices): Pick<Handlers, 'server.info'> {
  return {
    'server.info': async ({ profileId, db }, { session }) => {
      const { connectionId, profile: p } = sessionProfile(profiles, profileId, session);
      return serverInfo(pool, connectionId, db ?? p.spec.db);
    },
  };
}
