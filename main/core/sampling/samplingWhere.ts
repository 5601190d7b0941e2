import { AppError } from '../../../app/errors';
import { currentMasterSpec } from '../pool/sentinels';
import { requireDbZero } from '../pool/topology';
import type { PoolApi, ProfileSpec } from '../pool/types';
import { mastersFor, type SamplingWhere } from './runSampling';
import { connectionFor } from '../resp/rawTarget';

/**
 * Where a run on a profile reads keys, as a function of the connection name
 * (the job id is known only once the job starts): every master of a cluster,
 * each SCANning or drawing from its own slots' keys, or one server (a sentinel
 * profile's master as the sentinels name it now). Asked before the job starts,
 * so a wrong DB or an unreachable cluster fails the call itself.
 */
export async function samplingWhere(
  pool: Pick<PoolApi, 'masters'>,
  connectionId: string,
  spec: ProfileSpec,
  db: number,
): Promise<(connectionName: string) => SamplingWhere> {
  if (spec.topology?.kind === 'cluster') {
    requireDbZero(db);
    const masters = await pool.masters(connectionId);
    if (masters.length === 0) throw new AppError('UNREACHABLE', `"${spec.name}": no healthy master serves slots (CLUSTER NODES); nothing to sample`);
    return (name) => ({ masters: mastersFor(masters, name) });
  }
  const master = await currentMasterSpec(spec);
  return (name) => connectionFor(master, db, name);
}
