import type { Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import { contextOf, type ErrorContext } from '../../pool/redisErrors';
import { requireDbZero } from '../../pool/topology';
import type { PoolApi, ProfileSpec, StoredProfile } from '../../pool/types';
import type { EditClient } from './runScript';

/** Where one edit runs, and how errors there name the server. */
export interface EditTarget {
  client: EditClient;
  /** A cluster: a rename must stay in its key's slot. */
  cluster: boolean;
  errorContext: ErrorContext;
}

/**
 * Edits are refused on the embedded server's profile: the README calls it "the read-only
 * profile **Local (embedded)**", the demo Cacheboard starts for itself. Every other profile's
 * data is the ops' to change, as bulk loads and trials do, whether the profile came from the
 * UI or the server's config file (ProfileView.readOnly means the *profile* cannot be edited
 * here, not its data). Refused before any Redis call.
 */
export function refuseReadOnly(profile: StoredProfile): void {
  if (profile.source === 'embedded') {
    throw new AppError('READ_ONLY', `"${profile.spec.name}" is the read-only embedded server: its keys cannot be edited. Add a profile for a server of your own to edit keys.`, 'profileId');
  }
}

/** The cluster client on a cluster (DB 0 only), else the shared client of (connection, db), which follows a sentinel set's master. */
export async function editTarget(pool: Pick<PoolApi, 'shared' | 'cluster'>, connectionId: string, spec: ProfileSpec, db: number): Promise<EditTarget> {
  if (spec.topology?.kind === 'cluster') {
    requireDbZero(db);
    return { client: await pool.cluster(connectionId), cluster: true, errorContext: { label: 'the cluster' } };
  }
  const client: Redis = await pool.shared(connectionId, db);
  return { client, cluster: false, errorContext: contextOf(client) };
}
