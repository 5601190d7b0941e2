import type { Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import { hasFieldTtls } from '../../pool/commandSupport';
import { contextOf, type ErrorContext } from '../../pool/redisErrors';
import { keyConnection } from '../keyConnection';
import type { PoolApi, ProfileSpec, StoredProfile } from '../../pool/types';
import type { ServerCan } from './editPlan';
import type { EditClient } from './runScript';

/** Where one edit runs, and how errors there name the server. */
export interface EditTarget {
  client: EditClient;
  /** A cluster: a rename must stay in its key's slot. */
  cluster: boolean;
  errorContext: ErrorContext;
  /** What the server can do that an edit depends on (hash-field TTLs). */
  can: ServerCan;
}

/**
 * Edits are refused on the embedded server's profile: docs/deployment.md calls it "the read-only
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

/** Why a profile's data may not be written (refuseReadOnly's reason), or undefined when it may: the console's check before a write. */
export function readOnlyWhy(profile: StoredProfile): string | undefined {
  try {
    refuseReadOnly(profile);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Where an edit runs: the key's connection (../keyConnection.ts), with how its errors name the server. */
export async function editTarget(pool: Pick<PoolApi, 'shared' | 'cluster'>, connectionId: string, spec: ProfileSpec, db: number): Promise<EditTarget> {
  const client = await keyConnection(pool, connectionId, spec, db);
  const cluster = client.isCluster;
  return { client, cluster, errorContext: cluster ? { label: 'the cluster' } : contextOf(client as Redis), can: { fieldTtls: await hasFieldTtls(client) } };
}
