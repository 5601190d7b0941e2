import { AppError } from '../../../../app/errors';
import { masterServing } from '../../pool/topology';
import type { PoolApi, ProfileSpec } from '../../pool/types';
import { connectionFor } from '../../resp/rawTarget';
import { slotOf } from '../../resp/slot';
import { startPacer, type Pacer } from '../pace/pacer';

/** The probe's connection name, as CLIENT LIST shows it. */
const PROBE_NAME = 'cacheboard:keys-find';
/**
 * A find's pace: the index build's latency budget (2 ms over the node's idle PING p99). Read-only,
 * so no replica-lag limit. HSCAN hands back a value with each field: half the index's keys per ms.
 */
const FIND_PACE = { maxLatencyMs: 2, maxReplicaLagBytes: Number.POSITIVE_INFINITY };
const FIND_SIZING = { fullCount: 1000, keysPerMs: 250 };

/**
 * Opens the pacer (pace/pacer.ts) of the node holding `key`: a cluster's master serving its slot,
 * else the profile's master, probed on a socket of its own (the session's credentials).
 */
export async function findPacer(
  pool: Pick<PoolApi, 'masters'>,
  connectionId: string,
  spec: ProfileSpec,
  db: number,
  key: Buffer,
  signal: AbortSignal,
): Promise<Pacer> {
  const cluster = spec.topology?.kind === 'cluster';
  const masters = await pool.masters(connectionId);
  const node = cluster ? masterServing(masters, slotOf(key)) : masters[0];
  if (node === undefined) throw new AppError('UNREACHABLE', `"${spec.name}": no healthy master serves the key; nothing to search`);
  return startPacer(connectionFor(node.spec, cluster ? 0 : db, PROBE_NAME), FIND_PACE, signal, FIND_SIZING);
}
