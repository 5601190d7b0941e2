import type { Handlers } from '../handlers';
import { deepPass } from '../../core/keys/index/deepIndex';
import { folderStats } from '../../core/keys/index/folderStats';
import { indexTargets, keysReader } from '../../core/keys/index/indexTargets';
import { IndexRegistry } from '../../core/keys/index/indexRegistry';
import { listKeys } from '../../core/keys/index/listKeys';
import { treeChildren } from '../../core/keys/index/tree';
import { keyBytes } from '../../core/keys/keyRef';
import type { Session } from '../session';
import { keysDecodeHandlers } from './keysDecode';
import { keysEditHandler } from './keysEdit';
import { keysValuesHandlers } from './keysValues';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

type KeysHandlers = Pick<
  Handlers,
  'keys.index.start' | 'keys.tree' | 'keys.folderStats' | 'keys.list' | 'keys.get' | 'keys.read' | 'keys.streamInfo' | 'keys.download' | 'keys.decode' | 'keys.edit'
>;

/** The Keys page's calls (its index progress and cancel are every job's, ./jobs.ts). */
export function keysHandlers(core: Pick<CoreServices, 'profiles' | 'pool' | 'jobs' | 'audit'>, indexes = new IndexRegistry(core.jobs.keysIndex)): KeysHandlers {
  const { profiles, pool } = core;
  /**
   * The session's connection to the profile (an analyst's runs as the analyst Redis user), its
   * DB, its index slot: per connection id, so names an ops build saw never reach an analyst
   * whose Redis user may not read them.
   */
  const at = (input: { profileId: string; db?: number | undefined; separator: string }, session: Session) => {
    const { id, profile } = sessionProfile(profiles, input.profileId, session);
    const db = input.db ?? profile.spec.db;
    return { id, spec: profile.spec, db, where: { target: `${id}/${db}`, separator: input.separator }, reader: keysReader(pool, id, profile.spec, db) };
  };
  return {
    'keys.index.start': async (input, { session }) => {
      const { id, spec, db, where, reader } = at(input, session);
      const targets = await indexTargets(pool, id, spec, db);
      return { jobId: indexes.start(where, targets, input.deep ? deepPass(reader) : undefined) };
    },
    'keys.tree': async (input, { session }) => {
      const { where, reader } = at(input, session);
      const index = indexes.serving(where);
      const page = await treeChildren(index, { prefix: keyBytes(input.prefix), sort: input.sort, offset: input.offset, limit: input.limit }, reader);
      return { state: indexes.state(where), ...page };
    },
    'keys.folderStats': async (input, { session }) => {
      const { where, reader } = at(input, session);
      return folderStats(indexes.serving(where), keyBytes(input.prefix), input.samples, reader);
    },
    'keys.list': async (input, { session }) => {
      const { where, reader } = at(input, session);
      const { match, type, noTtl, sort, order, cursor, limit } = input;
      return listKeys(indexes.serving(where), { match: keyBytes(match), type, noTtl, sort, order, cursor, limit }, reader);
    },
    ...keysValuesHandlers(core),
    ...keysDecodeHandlers(core),
    'keys.edit': keysEditHandler(core),
  };
}
