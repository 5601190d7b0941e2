import type { Redis } from 'ioredis';
import { runBgsave } from './bgsave';
import { LoadCancelled, untilCancelled } from './cancellation';
import type { LoadLog } from './loadLog';
import { refusedWhenQueued } from '../../pool/commandSupport';
import { readRefusal } from '../../redis/refusal';
import { unprotectedBy } from './unprotected';

const NO_SNAPSHOT = 'no snapshot was made after the load (--bgsave)';
import { DEFAULT_WAIT_TIMEOUT_MS, waitForReplicas } from './waitReplicas';

/** What one server's steps after the switch need; the new data is live by then, so a cancel only stops the waiting. */
export interface AfterSwitch {
  redis: Redis;
  log: LoadLog;
  signal: AbortSignal;
  address: string;
}

/** --bgsave: a snapshot with the new data. A server that refuses BGSAVE is a warning, not a failure. */
export async function bgsaveAfterSwitch({ redis, log, signal, address }: AfterSwitch): Promise<void> {
  log.phase('bgsave', 'BGSAVE: writing a snapshot with the new data');
  // Asked first (nothing runs): runBgsave reads INFO before BGSAVE, so a refused INFO would otherwise hide a refused BGSAVE.
  const refusedSave = await refusedWhenQueued(redis, ['BGSAVE']);
  if (refusedSave !== undefined) {
    log.unprotected('BGSAVE', NO_SNAPSHOT, false);
    log.warn(`BGSAVE is not available on ${address} (${refusedSave.message}): no snapshot was made`);
    return;
  }
  try {
    const r = await runBgsave(redis, signal);
    log.report.bgsave = r;
    if (r.status !== 'ok') log.warn(`BGSAVE ended with status "${r.status}": the snapshot on disk is not up to date; see the server log`);
  } catch (err) {
    if (err instanceof LoadCancelled) {
      log.warn('Cancelled after the switch: the new data is live; stopped waiting for BGSAVE (it runs on)');
      return;
    }
    const refused = readRefusal(err, ['BGSAVE']);
    if (refused === undefined) throw err;
    log.unprotected(refused.command, NO_SNAPSHOT, false);
    log.warn(`${refused.command} is not available on ${address} (${refused.message}): no snapshot was made`);
  }
}

/** --wait-replicas N: WAIT for N replicas, the offset reached by each reported. */
export async function replicasAfterSwitch(
  { redis, log, signal, address }: AfterSwitch,
  wait: {
    count: number;
    jobId: string;
    timeoutMs: number | undefined;
    /** A cancel stopped the waiting, but WAIT still blocks the connection: cleanup needs a fresh one. */
    leftBlocking: () => void;
  },
): Promise<void> {
  const { count } = wait;
  const timeoutMs = wait.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  log.phase('replicas', `WAIT for ${count} replica${count === 1 ? '' : 's'} (up to ${timeoutMs / 1000} s)`);
  try {
    const r = await untilCancelled(waitForReplicas(redis, count, wait.jobId, timeoutMs), signal);
    if (r.replicas !== undefined) log.report.replicas = r.replicas;
    if (r.infoRefused !== undefined) {
      log.unprotected('INFO', `replica lag not available: INFO refused; WAIT says ${r.acknowledged} of ${count} replicas acknowledged, with no offsets`);
    }
    if (r.warning !== undefined) log.warn(r.warning);
  } catch (err) {
    if (err instanceof LoadCancelled) {
      wait.leftBlocking();
      log.warn('Cancelled after the switch: the new data is live; stopped waiting for replicas');
      return;
    }
    const refused = unprotectedBy(log, err, ['WAIT'], 'the replicas were not waited for (--wait-replicas)');
    if (refused === undefined) throw err;
    log.warn(`WAIT is not available on ${address} (${refused}): replicas were not checked`);
  }
}
