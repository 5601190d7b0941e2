import type { InfoSnapshot } from '../../../app/schemas/server';
import { toInfoSnapshot } from '../info/infoSnapshot';
import { parseInfo } from '../info/parseInfo';
import type { PoolApi } from '../pool/types';

/**
 * INFO of a connection's server, read over the monitoring connection: its short timeout and
 * no offline queue make a dead server answer with an error now instead of queueing polls.
 */
export async function serverInfo(pool: Pick<PoolApi, 'monitoring'>, connectionId: string, db: number): Promise<InfoSnapshot> {
  const redis = await pool.monitoring(connectionId, db);
  return toInfoSnapshot(parseInfo(await redis.info()), Date.now());
}
