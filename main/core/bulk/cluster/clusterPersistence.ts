import type { MasterNode } from '../../pool/types';
import { runBgsave, type BgsaveResult } from '../job/bgsave';
import { LoadCancelled } from '../job/cancellation';
import { commandRefusal } from '../job/commandRefusal';
import type { LoadLog } from '../job/loadLog';
import { DEFAULT_WAIT_TIMEOUT_MS, waitForReplicaOffsets } from '../job/waitReplicas';
import type { ClusterMasters } from './clusterMasters';

/** What the steps after a cluster load need: the data is in by then, so a cancel only stops the waiting. */
export interface AfterClusterLoad {
  /** The masters serving now (asked again: a failover may have moved them). */
  nodes(): Promise<MasterNode[]>;
  masters: ClusterMasters;
  log: LoadLog;
  signal: AbortSignal;
}

/** --bgsave: every master serving now writes a snapshot, all at once (each forks its own child). */
export async function snapshotAll({ nodes, masters, log, signal }: AfterClusterLoad): Promise<void> {
  const now = await nodes();
  log.phase('bgsave', `BGSAVE on ${now.length} masters: writing snapshots with the new data`);
  let results: (BgsaveResult | undefined)[];
  try {
    results = await Promise.all(
      now.map(async (m) => {
        const redis = (await masters.join(m.address, m.spec)).lease.redis;
        try {
          return await runBgsave(redis, signal);
        } catch (err) {
          const refused = err instanceof LoadCancelled ? undefined : commandRefusal(err);
          if (refused === undefined) throw err;
          log.warn(`${m.address}: BGSAVE is not available (${refused}): no snapshot was made there`);
          return undefined;
        }
      }),
    );
  } catch (err) {
    if (!(err instanceof LoadCancelled)) throw err;
    log.warn('Cancelled after the load: the data is in; stopped waiting for BGSAVE (it runs on)');
    return;
  }
  const done = results.filter((r): r is BgsaveResult => r !== undefined);
  results.forEach((r, i) => {
    if (r !== undefined && r.status !== 'ok')
      log.warn(`${now[i]?.address ?? '?'}: BGSAVE ended with status "${r.status}": its snapshot on disk is not up to date; see its log`);
  });
  if (done.length === 0) return;
  // The cluster's snapshot is as late as its slowest master, and only as good as its worst.
  log.report.bgsave = { seconds: Math.max(...done.map((r) => r.seconds)), status: done.find((r) => r.status !== 'ok')?.status ?? 'ok' };
}

/** --wait-replicas N: N replicas of every master serving now reach its offset as of the end of the load. */
export async function replicasOfAll({ nodes, masters, log, signal }: AfterClusterLoad, count: number, waitTimeoutMs: number | undefined): Promise<void> {
  const timeoutMs = waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const now = await nodes();
  log.phase('replicas', `Waiting for ${count} replica${count === 1 ? '' : 's'} of each of ${now.length} masters (up to ${timeoutMs / 1000} s)`);
  const waits = await Promise.all(
    now.map(async (m) => ({ m, w: await waitForReplicaOffsets((await masters.join(m.address, m.spec)).lease.redis, count, timeoutMs, signal) })),
  );
  log.report.replicas = waits.flatMap(({ w }) => w.replicas ?? []);
  for (const { m, w } of waits) if (w.warning !== undefined) log.warn(`${m.address}: ${w.warning}`);
  if (signal.aborted) log.warn('Cancelled after the load: the data is in; stopped waiting for replicas');
}
