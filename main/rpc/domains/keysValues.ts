import { AppError } from '../../../app/errors';
import { keyBytes } from '../../core/keys/keyRef';
import { downloadString } from '../../core/keys/values/download';
import { keyMeta } from '../../core/keys/values/keyMeta';
import { readPage } from '../../core/keys/values/readPage';
import { streamInfo } from '../../core/keys/values/streamInfo';
import { valueClient, type ValueClient } from '../../core/keys/values/valueClient';
import type { Handlers } from '../handlers';
import type { Session } from '../session';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

type ValuesHandlers = Pick<Handlers, 'keys.get' | 'keys.read' | 'keys.streamInfo' | 'keys.download'>;

/**
 * Reading one key's value: metadata, pages, stream info, a string's download. Every call
 * reads as the session's connection to the profile (an analyst's carries the profile's
 * analyst Redis user), on the cluster client, a sentinel set's master, or the server.
 */
export function keysValuesHandlers({ profiles, pool }: Pick<CoreServices, 'profiles' | 'pool'>): ValuesHandlers {
  const client = (profileId: string, db: number | undefined, session: Session): Promise<ValueClient> => {
    const { id, profile } = sessionProfile(profiles, profileId, session);
    return valueClient(pool, id, profile.spec, db ?? profile.spec.db);
  };
  return {
    'keys.get': async ({ profileId, db, key }, { session }) => keyMeta(await client(profileId, db, session), keyBytes(key)),
    'keys.read': async ({ profileId, db, key, page }, { session }) => readPage(await client(profileId, db, session), keyBytes(key), page),
    'keys.streamInfo': async ({ profileId, db, key }, { session }) => streamInfo(await client(profileId, db, session), keyBytes(key)),
    'keys.download': async ({ profileId, db, key }, sink, { session }) => {
      const redis = await client(profileId, db, session);
      downloadString(redis, keyBytes(key), sink).then(
        () => sink.end(),
        (e: unknown) => sink.end(e instanceof AppError ? e : new AppError('INTERNAL', `The download failed: ${e instanceof Error ? e.message : String(e)}`)),
      );
      // The download stops on its own when the subscription ends (sink.signal).
      return () => undefined;
    },
  };
}
