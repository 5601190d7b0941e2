import { randomBytes } from 'node:crypto';
import type { TrialKind } from '../../../app/schemas/trials';
import type { PoolApi, ProfileSpec } from '../pool/types';
import { poolConnector, privateConnector, type TrialConnector } from './connector';
import { trialTarget, type TrialTarget } from './trialTarget';

/** A trial on one of the app's profiles: the server it measures, and how its run connects there. */
export interface ProfileTrial extends TrialTarget {
  /** The run's connector; its caller closes it when the run ends. */
  connect(): TrialConnector;
}

/**
 * Where a trial on a profile runs, known before its job starts (for the one-trial-per-server
 * check). The job id comes only later, so on a cluster the scratch keys' hash tag, which picks
 * the master, is an id of its own. A cluster profile's pool connections go to the whole cluster:
 * the chosen master gets sockets of the run's own; elsewhere the run shares the profile's pool.
 */
export async function profileTrial(
  pool: PoolApi,
  profileId: string,
  spec: ProfileSpec,
  req: { trial: TrialKind; db: number | undefined },
): Promise<ProfileTrial> {
  const tag = randomBytes(6).toString('base64url');
  const target = await trialTarget(pool, profileId, spec, { ...req, tag });
  const connect = (): TrialConnector => (target.hashTag === undefined ? poolConnector(target.spec, pool, profileId) : privateConnector(target.spec));
  return { ...target, connect };
}
