import { AppError } from '../../../app/errors';
import type { ConnectionState } from '../../core/pool/types';
import { analystIdOf } from '../../core/pool/roleProfiles';
import { draftWithSavedSecrets } from '../../core/pool/draftSecrets';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';
import { connectionOf, roleOf, storedProfile } from './sessionProfile';

type ConnectionHandlers = Pick<
  Handlers,
  'connections.list' | 'connections.add' | 'connections.update' | 'connections.remove' | 'connections.test' | 'connections.state'
>;

export function connectionHandlers({ profiles, pool }: CoreServices): ConnectionHandlers {
  const mustGet = (id: string) => storedProfile(profiles, id, 'id');

  return {
    'connections.list': (_args, { session }) => {
      const role = roleOf(session);
      // A profile analysts may not use is not theirs to see either (ProfileStore.forRole refuses it).
      const shown = profiles.list().filter((p) => role === 'ops' || p.analystsRefused !== true);
      return { profiles: shown.map((p) => profiles.view(p, role)), passwordStorage: profiles.passwordStorage() };
    },

    'connections.add': (spec) => profiles.view(profiles.add(spec)),

    'connections.update': async ({ id, profile, clearPassword }) => {
      const updated = profiles.update(id, profile, { clearPassword });
      // Open connections still carry the old host/credentials, analysts' ones too.
      await Promise.all([pool.closeProfile(id), pool.closeProfile(analystIdOf(id))]);
      return profiles.view(updated);
    },

    'connections.remove': async ({ id }) => {
      mustGet(id);
      await Promise.all([pool.closeProfile(id), pool.closeProfile(analystIdOf(id))]);
      profiles.remove(id);
      return { removed: true as const };
    },

    'connections.test': ({ id, draft }, { session }) => {
      // A saved profile is tested with the credentials this session's calls will use.
      if (draft === undefined) return pool.test(mustGet(id === undefined ? '' : connectionOf(profiles, id, session)).spec);
      // A draft names any host: testing it would let an analyst probe the internal
      // network through this server. Analysts test saved profiles only.
      if (session.role !== 'ops') {
        throw new AppError('FORBIDDEN', 'Analysts can test saved connections only; ask an ops user to add this one.', 'draft');
      }
      // A saved profile's blank passwords follow the draft only where the profile points.
      return pool.test(id === undefined ? { ...draft } : draftWithSavedSecrets(mustGet(id).spec, draft));
    },

    'connections.state': (_args, sink, { session }) => {
      // Each session sees the state of the connections its calls use (an analyst's
      // under the profile's own id), never another role's.
      const push = (s: ConnectionState) => {
        const profileId = profiles.shownAs(s.profileId, roleOf(session));
        if (profileId !== undefined) sink.push({ ...s, profileId });
      };
      // Current state of every profile first (the pool knows all of them), then changes.
      for (const s of pool.states()) push(s);
      return pool.onState(push);
    },
  };
}
