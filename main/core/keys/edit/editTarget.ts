import type { Redis } from 'ioredis';
import { hasFieldTtls } from '../../pool/commandSupport';
import { refuseEmbedded } from '../../pool/readOnlyProfile';
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

/** Edits are refused on the read-only embedded server's profile (refuseEmbedded), before any Redis call. */
export function refuseReadOnly(profile: StoredProfile): void {
  refuseEmbedded(profile, { refused: 'its keys cannot be edited', instead: 'edit keys' });
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
