import type { Redis } from 'ioredis';
import { hasFieldTtls } from '../../pool/commandSupport';
import { refuseReadOnlyData } from '../../pool/readOnlyProfile';
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

/** Edits and key actions are refused on a read-only-data profile (refuseReadOnlyData), before any Redis call. */
export function refuseKeyWrites(profile: StoredProfile): void {
  refuseReadOnlyData(profile, { refused: 'its keys cannot be edited', instead: 'edit keys' });
}

/** Where an edit runs: the key's connection (../keyConnection.ts), with how its errors name the server. */
export async function editTarget(pool: Pick<PoolApi, 'shared' | 'cluster'>, connectionId: string, spec: ProfileSpec, db: number): Promise<EditTarget> {
  const client = await keyConnection(pool, connectionId, spec, db);
  const cluster = client.isCluster;
  return { client, cluster, errorContext: cluster ? { label: 'the cluster' } : contextOf(client as Redis), can: { fieldTtls: await hasFieldTtls(client) } };
}
