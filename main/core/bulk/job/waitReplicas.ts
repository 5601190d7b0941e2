import type { Redis } from 'ioredis';
import type { LoadReport } from '../../../../app/schemas/bulk';
import { infoNumber } from '../../info/infoSnapshot';
import { replicaLinksOf } from '../../info/replicaLinks';
import { commandRefusal } from './commandRefusal';
import { parseInfo } from '../../info/parseInfo';
import { unlessRefused, type Refusal } from '../../redis/refusal';
import { readInfo } from './serverFacts';

export type ReplicaAck = NonNullable<LoadReport['replicas']>[number];

/** How long --wait-replicas waits unless told otherwise. */
export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;

export interface ReplicaWait {
  /** Absent when INFO is refused: WAIT's count is all that is known. */
  replicas?: ReplicaAck[];
  /** WAIT's answer: replicas that acknowledged within the timeout. */
  acknowledged: number;
  /** Set when fewer than asked acknowledged. */
  warning?: string;
  /** INFO was refused (the server's words): no offsets. */
  infoRefused?: string;
}

/** The replicas INFO replication lists, each acknowledged or not up to `masterOffset`. */
export function replicasOf(replication: Record<string, string>, masterOffset: number): ReplicaAck[] {
  return replicaLinksOf({ replication }).map(({ address, offset }) => ({
    addr: address,
    offset,
    acked: offset >= masterOffset,
    behind: Math.max(0, masterOffset - offset),
  }));
}

/**
 * Wait until `count` replicas have the load. WAIT only counts the writes of
 * the connection it runs on, and the load's writes went over the raw data
 * connection: so a PUBLISH on this connection first (replicated, harmless,
 * and after every write of the load in the replication stream) makes WAIT
 * cover them. The offsets come from INFO replication, with master_repl_offset
 * read before WAIT as the mark each replica must reach.
 *
 * Too few acknowledgements is a warning, not a failure: the data is live on
 * the master and replicas catch up on their own; the report says which lag.
 */
export async function waitForReplicas(redis: Redis, count: number, jobId: string, timeoutMs: number): Promise<ReplicaWait> {
  let refused: Refusal | undefined;
  // An ACL user without @dangerous may not read INFO: WAIT (@connection) still counts the replicas that have the load.
  const replication = async (): Promise<Record<string, string> | undefined> => {
    const text = refused === undefined ? await unlessRefused(redis.info('replication'), ['INFO'], (r) => (refused = r)) : undefined;
    return text === undefined ? undefined : (parseInfo(text)['replication'] ?? {});
  };
  const before = await replication();
  const mark = infoNumber(before?.['master_repl_offset']);
  try {
    await redis.publish('cacheboard:bulk', `${jobId} loaded`);
  } catch (err) {
    if (commandRefusal(err) === undefined) throw err;
    // Without PUBLISH, WAIT covers only this connection's own writes (a swap's SWAPDB); offsets still tell.
  }
  const acknowledged = Number(await redis.call('WAIT', String(count), String(timeoutMs)));
  const after = await replication();
  if (after === undefined || refused !== undefined) {
    const unknown: ReplicaWait = { acknowledged, infoRefused: refused?.message ?? 'INFO refused' };
    return withShortfall(unknown, acknowledged, count, timeoutMs);
  }
  const replicas = replicasOf(after, mark);
  const acked = replicas.filter((r) => r.acked).length;
  return withShortfall({ replicas, acknowledged }, Math.max(acked, acknowledged), count, timeoutMs);
}

/** The warning when fewer than `count` replicas have the load: how many did, and which lag. */
function withShortfall(result: ReplicaWait, acked: number, count: number, timeoutMs: number): ReplicaWait {
  if (acked >= count) return result;
  const replicas = result.replicas ?? [];
  const lagging = replicas.filter((r) => !r.acked).map((r) => r.addr);
  result.warning =
    `Only ${acked} of ${count} replicas acknowledged the load within ${timeoutMs / 1000} s` +
    (result.replicas !== undefined && replicas.length < count ? ` (the master has ${replicas.length} connected)` : '') +
    (lagging.length > 0 ? `; behind: ${lagging.join(', ')}` : '');
  return result;
}

/**
 * Wait until `count` replicas of this master have reached its replication offset
 * as of now, by INFO replication alone (replicas report their offset about once a
 * second). For a cluster master: there PUBLISH travels the cluster bus, not the
 * replication stream, so WAIT on the control connection would cover nothing.
 */
export async function waitForReplicaOffsets(redis: Redis, count: number, timeoutMs: number, signal: AbortSignal, pollMs = 100): Promise<ReplicaWait> {
  const mark = infoNumber(((await readInfo(redis, 'replication'))['replication'] ?? {})['master_repl_offset']);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const replicas = replicasOf((await readInfo(redis, 'replication'))['replication'] ?? {}, mark);
    const acked = replicas.filter((r) => r.acked).length;
    if (acked >= count || Date.now() >= deadline || signal.aborted) return withShortfall({ replicas, acknowledged: acked }, acked, count, timeoutMs);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
