import type { PoolApi } from '../../pool/types';
import { ACTION_SCRIPT, ACTION_SHA } from './actionScript';

/**
 * One key's script through the pooled cluster client, which follows MOVED and ASK: what a run
 * does with a key whose slot moved off the master that SCAN found it on (a slot migrating mid-run).
 */
export function clusterRetry(pool: Pick<PoolApi, 'cluster'>, connectionId: string): (key: Buffer, args: string[]) => Promise<unknown> {
  return async (key, args) => {
    const c = await pool.cluster(connectionId);
    try {
      return await c.callBuffer('EVALSHA', ACTION_SHA, '1', key, ...args);
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
      return c.callBuffer('EVAL', ACTION_SCRIPT, '1', key, ...args);
    }
  };
}
