import type { Redis } from 'ioredis';
import { MAX_PROGRESS_REPLICAS, type ReplicaLag } from '../../../../app/schemas/bulk';
import { infoNumber } from '../../info/infoSnapshot';
import type { InfoSections } from '../../info/parseInfo';
import { replicaLinksOf } from '../../info/replicaLinks';
import { readInfo } from './serverFacts';

/** A master's replicas as one INFO replication shows them: the first MAX_PROGRESS_REPLICAS, and how many more. */
export interface ReplicaLagSample {
  replicas: ReplicaLag[];
  more: number;
}

/**
 * Each replica's lag behind the master: in bytes, master_repl_offset minus the offset the replica
 * last acknowledged (REPLCONF ACK, about once a second, so up to a second's writes of lag are
 * only the acknowledgement's delay), and in seconds since that acknowledgement.
 */
export function replicaLagOf(sections: InfoSections): ReplicaLagSample {
  const mark = infoNumber(sections['replication']?.['master_repl_offset']);
  const all = replicaLinksOf(sections).map((l) => ({
    addr: l.address,
    state: l.state,
    offset: l.offset,
    lagBytes: Math.max(0, mark - l.offset),
    lagSeconds: l.lag,
  }));
  return { replicas: all.slice(0, MAX_PROGRESS_REPLICAS), more: Math.max(0, all.length - MAX_PROGRESS_REPLICAS) };
}

/** One INFO replication of the master: a few hundred bytes, paced by the caller (ProgressReporter, once a second). */
export async function readReplicaLag(redis: Redis): Promise<ReplicaLagSample> {
  return replicaLagOf(await readInfo(redis, 'replication'));
}
