import { setTimeout as sleep } from 'node:timers/promises';
import type { PoolApi } from '../../pool/types';
import { ACTION_SCRIPT, ACTION_SHA } from './actionScript';

/**
 * Answers that mean "not here, not now" while a cluster moves a slot or fails a master over:
 * the command was refused before it ran (a redirection, a slot or cluster not served yet, a
 * demoted master refusing the script's write, a replica loading or cut off from its master),
 * or its connection went with the old master. Sent again where the slot lives now, it runs.
 */
const WINDOW =
  /^(MOVED|ASK|TRYAGAIN|CLUSTERDOWN|READONLY|LOADING|MASTERDOWN|UNBLOCKED) |^(Too many Cluster redirections|Connection is closed|Command timed out)/;

/** Whether a key's error is one a cluster gives while a slot moves or a master fails over. */
export function inFailoverWindow(message: string): boolean {
  return WINDOW.test(message);
}

/** Tries per key through the cluster client, and the pause before each next one (doubling, capped): about 7 s in all, longer than a manual failover. */
export const RETRY_ATTEMPTS = 9;
const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 1_500;

/**
 * One key's script through the pooled cluster client, which follows MOVED and ASK: what a run
 * does with a key whose slot moved off the master that SCAN found it on (a slot migrating, a
 * failover). An answer of the failover window is tried again after a pause, a bounded number
 * of times: the cluster client's slot map may still name the demoted master for a moment.
 */
export function clusterRetry(pool: Pick<PoolApi, 'cluster'>, connectionId: string): (key: Buffer, args: string[]) => Promise<unknown> {
  const once = async (key: Buffer, args: string[]): Promise<unknown> => {
    const c = await pool.cluster(connectionId);
    try {
      return await c.callBuffer('EVALSHA', ACTION_SHA, '1', key, ...args);
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
      return c.callBuffer('EVAL', ACTION_SCRIPT, '1', key, ...args);
    }
  };
  return async (key, args) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(key, args);
      } catch (e) {
        if (attempt >= RETRY_ATTEMPTS || !(e instanceof Error) || !inFailoverWindow(e.message)) throw e;
        await sleep(Math.min(FIRST_PAUSE_MS * 2 ** (attempt - 1), MAX_PAUSE_MS));
      }
    }
  };
}
