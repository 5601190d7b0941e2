import type { ProfileId } from '../../../app/schemas/common';
import { decodeKey } from '../../core/keys/decode/decodeKey';
import { DecodeRunner } from '../../core/keys/decode/decodeRunner';
import { editTarget, refuseKeyWrites } from '../../core/keys/edit/editTarget';
import { fullMetaReader } from '../../core/keys/edit/freshMeta';
import { runEdit } from '../../core/keys/edit/runEdit';
import { deepPass } from '../../core/keys/index/deepIndex';
import { folderStats } from '../../core/keys/index/folderStats';
import { editedKeys } from '../../core/keys/index/indexEdits';
import { IndexRegistry } from '../../core/keys/index/indexRegistry';
import { indexTargets, keysReader } from '../../core/keys/index/indexTargets';
import { listKeys } from '../../core/keys/index/listKeys';
import { treeChildren } from '../../core/keys/index/tree';
import { keyConnection } from '../../core/keys/keyConnection';
import { keyBytes } from '../../core/keys/keyRef';
import { downloadString } from '../../core/keys/values/download';
import { findElements } from '../../core/keys/values/findElements';
import { findPacer } from '../../core/keys/values/findPacer';
import { keyMeta } from '../../core/keys/values/keyMeta';
import { readPage } from '../../core/keys/values/readPage';
import { streamInfo } from '../../core/keys/values/streamInfo';
import { valueClient, type ValueClient } from '../../core/keys/values/valueClient';
import type { Handlers } from '../handlers';
import type { Session } from '../session';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { roleOf, sessionProfile } from './sessionProfile';
import { streamDownload } from './streamDownload';

type KeysHandlers = Pick<
  Handlers,
  | 'keys.index.start'
  | 'keys.index.open'
  | 'keys.tree'
  | 'keys.folderStats'
  | 'keys.list'
  | 'keys.get'
  | 'keys.read'
  | 'keys.streamInfo'
  | 'keys.download'
  | 'keys.findElements'
  | 'keys.decode'
  | 'keys.edit'
>;

/** The Keys page's calls (its index progress and cancel are every job's, ./jobs.ts). */
export function keysHandlers(core: Pick<CoreServices, 'profiles' | 'pool' | 'jobs' | 'audit'>, indexes = new IndexRegistry(core.jobs.keysIndex)): KeysHandlers {
  const { profiles, pool } = core;
  /**
   * The session's connection to the profile (an analyst's runs as the analyst Redis user), its
   * DB, its index slot: per connection id, so names an ops build saw never reach an analyst
   * whose Redis user may not read them; every user of one connection shares its indexes.
   */
  const at = (input: { profileId: ProfileId; db?: number | undefined; separator: string }, session: Session) => {
    const { connectionId, profile } = sessionProfile(profiles, input.profileId, session);
    const db = input.db ?? profile.spec.db;
    const where = { profileId: input.profileId, target: `${connectionId}/${db}`, db, separator: input.separator };
    return { connectionId, spec: profile.spec, db, where, reader: keysReader(pool, connectionId, profile.spec, db) };
  };
  return {
    'keys.index.start': async (input, { session }) => {
      const { connectionId, spec, db, where, reader } = at(input, session);
      const targets = await indexTargets(pool, connectionId, spec, db);
      return { jobId: indexes.start(where, targets, { deep: input.deep ? deepPass(reader) : undefined, reader, role: roleOf(session) }) };
    },
    'keys.index.open': async (input, { session }) => {
      const { connectionId, spec, db, where, reader } = at(input, session);
      const targets = await indexTargets(pool, connectionId, spec, db);
      return indexes.open(where, targets, { reader, role: roleOf(session) });
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
    'keys.edit': keysEditHandler(core, indexes),
  };
}

type ValuesHandlers = Pick<Handlers, 'keys.get' | 'keys.read' | 'keys.streamInfo' | 'keys.download' | 'keys.findElements'>;

/**
 * Reading one key's value: metadata, pages, stream info, a string's download. Every call
 * reads as the session's connection to the profile (an analyst's carries the profile's
 * analyst Redis user), on the cluster client, a sentinel set's master, or the server.
 */
export function keysValuesHandlers({ profiles, pool }: Pick<CoreServices, 'profiles' | 'pool'>): ValuesHandlers {
  const client = (profileId: ProfileId, db: number | undefined, session: Session): Promise<ValueClient> => {
    const { connectionId, profile } = sessionProfile(profiles, profileId, session);
    return valueClient(pool, connectionId, profile.spec, db ?? profile.spec.db);
  };
  return {
    'keys.get': async ({ profileId, db, key }, { session }) => keyMeta(await client(profileId, db, session), keyBytes(key)),
    'keys.read': async ({ profileId, db, key, page }, { session }) => readPage(await client(profileId, db, session), keyBytes(key), page),
    'keys.streamInfo': async ({ profileId, db, key }, { session }) => streamInfo(await client(profileId, db, session), keyBytes(key)),
    'keys.download': async ({ profileId, db, key }, sink, { session }) => {
      const redis = await client(profileId, db, session);
      return streamDownload(sink, downloadString(redis, keyBytes(key), sink));
    },
    'keys.findElements': async ({ profileId, db, key, type, match, limit }, sink, { session }) => {
      const { connectionId, profile } = sessionProfile(profiles, profileId, session);
      const where = db ?? profile.spec.db;
      const redis = await valueClient(pool, connectionId, profile.spec, where);
      const bytes = keyBytes(key);
      const pacer = (signal: AbortSignal) => findPacer(pool, connectionId, profile.spec, where, bytes, signal);
      return streamDownload(sink, findElements(redis, bytes, { type, match: Buffer.from(match, 'base64'), limit }, sink, { pacer }), 'The find');
    },
  };
}

/**
 * keys.edit: ops only (the contract's role; the dispatcher refuses analysts), never on the
 * read-only embedded profile, each edit that reaches Redis recorded in the audit log.
 */
export function keysEditHandler(
  { profiles, pool, audit }: Pick<CoreServices, 'profiles' | 'pool' | 'audit'>,
  /** The Keys page's indexes: an edit's key (a rename's two) goes in or out of them as the edit left it. */
  indexes?: Pick<IndexRegistry, 'keysChanged'>,
): Handlers['keys.edit'] {
  return async ({ profileId, db, key, edit }, { session }) => {
    const { connectionId, profile } = sessionProfile(profiles, profileId, session);
    refuseKeyWrites(profile);
    const where = db ?? profile.spec.db;
    const target = await editTarget(pool, connectionId, profile.spec, where);
    const trail = auditFor(audit, session, `keys.${edit.op}`, `profile ${profileId} db ${where}`);
    const done = await runEdit(target, keyBytes(key), edit, fullMetaReader(target.client), trail);
    indexes?.keysChanged(profileId, where, editedKeys(keyBytes(key), edit.op, keyBytes(done.key.b64), done.meta.exists), `An edit (${edit.op})`);
    return done;
  };
}

/**
 * keys.decode, read as the session's connection to the profile (an analyst's carries the
 * profile's analyst Redis user). One decode worker per set of handlers, started on first use.
 */
export function keysDecodeHandlers({ profiles, pool }: Pick<CoreServices, 'profiles' | 'pool'>, runner = new DecodeRunner()): Pick<Handlers, 'keys.decode'> {
  return {
    'keys.decode': async ({ profileId, db, key, as, compression }, { session }) => {
      const { connectionId, profile } = sessionProfile(profiles, profileId, session);
      const redis = await keyConnection(pool, connectionId, profile.spec, db ?? profile.spec.db);
      return decodeKey(redis, runner, { key: keyBytes(key), as, compression });
    },
  };
}
