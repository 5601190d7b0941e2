import type { ProfileView } from '../../app/schemas/connections';
import { useCall } from '../bridge/useCall';
import { isReplicaRole } from './nodes';

/** Key counts move while a page is open: read again this often. */
const FACTS_INTERVAL_MS = 5000;

/** What a page can know about a profile's server before it starts a job there. */
export interface ServerFacts {
  /** The server answering the profile is a replica: a job that writes will be refused. */
  replica: boolean;
  /** DBSIZE of a DB, from INFO keyspace (0 for a DB it does not list). */
  keysIn(db: number): number;
}

/**
 * The role and key counts of a profile's server (INFO, polled), so a page says before
 * Start what the server would refuse after. Undefined until read, on a read error (the
 * server stays the judge), and for a cluster profile, whose keys are spread over masters.
 */
export function useServerFacts(profile: ProfileView | undefined): ServerFacts | undefined {
  const skip = profile === undefined || profile.topology?.kind === 'cluster';
  const info = useCall('server.info', skip ? undefined : { profileId: profile.id }, { intervalMs: FACTS_INTERVAL_MS });
  const data = skip || info.error !== undefined ? undefined : info.data;
  if (data === undefined) return undefined;
  return {
    replica: isReplicaRole(data.role),
    keysIn: (db) => data.keyspace.find((k) => k.db === db)?.keys ?? 0,
  };
}
