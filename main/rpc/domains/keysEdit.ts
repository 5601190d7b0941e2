import { editTarget, refuseReadOnly } from '../../core/keys/edit/editTarget';
import { basicMetaReader } from '../../core/keys/edit/freshMeta';
import { runEdit } from '../../core/keys/edit/runEdit';
import { keyBytes } from '../../core/keys/keyRef';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

/**
 * keys.edit: ops only (the contract's role; the dispatcher refuses analysts), never on the
 * read-only embedded profile, each edit that reaches Redis recorded in the audit log.
 */
export function keysEditHandler({ profiles, pool, audit }: Pick<CoreServices, 'profiles' | 'pool' | 'audit'>): Handlers['keys.edit'] {
  return async ({ profileId, db, key, edit }, { session }) => {
    const { id, profile } = sessionProfile(profiles, profileId, session);
    refuseReadOnly(profile);
    const where = db ?? profile.spec.db;
    const target = await editTarget(pool, id, profile.spec, where);
    const trail = auditFor(audit, session, `keys.${edit.op}`, `profile ${profileId} db ${where}`);
    // TODO(keys-values): pass keys.get's reader (core/keys/values/keyMeta.ts) instead of the basic one.
    return runEdit(target, keyBytes(key), edit, basicMetaReader(target.client), trail);
  };
}
