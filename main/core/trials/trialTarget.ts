import { AppError } from '../../../app/errors';
import type { TrialKind } from '../../../app/schemas/trials';
import { slotOf } from '../resp/slot';
import { currentMasterSpec } from '../pool/sentinels';
import { masterServing, requireDbZero } from '../pool/topology';
import type { PoolApi, ProfileSpec } from '../pool/types';
import { scratchPrefix } from './scratch';

/** The one server a trial measures, and the hash tag its scratch keys carry there (cluster only). */
export interface TrialTarget {
  spec: ProfileSpec;
  /** Set on a cluster: the run's scratch prefix is `cacheboard:trial:{<hashTag>}:`. */
  hashTag?: string;
}

export interface TargetRequest {
  trial: TrialKind;
  /** The DB the caller asked for, if any. */
  db: number | undefined;
  /** The id that becomes the hash tag on a cluster (letters, digits, _ and -). */
  tag: string;
}

/**
 * Where a trial on a profile runs. A trial times one server's round trips, so
 * on a Redis Cluster it runs on one master: the one serving the slot of the
 * run's hash tag, which every scratch key carries, so no key is redirected
 * (MOVED) and MULTI/EXEC, which a node runs only over keys of one slot, works.
 * A sentinel profile's trial runs on the master the sentinels name now.
 */
export async function trialTarget(pool: Pick<PoolApi, 'masters'>, profileId: string, spec: ProfileSpec, req: TargetRequest): Promise<TrialTarget> {
  if (spec.topology?.kind !== 'cluster') return { spec: await currentMasterSpec(spec) };
  refuseOnCluster(req);
  const slot = slotOf(scratchPrefix(req.tag, true));
  const master = masterServing(await pool.masters(profileId), slot);
  if (master === undefined) {
    throw new AppError(
      'UNREACHABLE',
      `"${spec.name}": no healthy master serves slot ${slot}, where the trial's scratch keys (hash tag {${req.tag}}) would go (CLUSTER NODES); check cluster_state`,
      'profileId',
    );
  }
  return { spec: { ...master.spec, db: 0 }, hashTag: req.tag };
}

/** What a cluster cannot run: SELECT of any DB but 0 is refused in cluster mode. */
function refuseOnCluster(req: TargetRequest): void {
  if (req.trial === 'multiplex') {
    throw new AppError(
      'VALIDATION',
      'The multiplex trial spreads its INCRs over several DBs, and a Redis Cluster has only DB 0 (SELECT is refused in cluster mode). ' +
        'Run it on a standalone or sentinel profile; pipeline and load run on a cluster, on one master.',
      'trial',
    );
  }
  if (req.db !== undefined) requireDbZero(req.db);
}
