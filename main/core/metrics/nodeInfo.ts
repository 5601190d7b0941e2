import type { Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import { parseInfo, type InfoSections } from '../info/parseInfo';
import { ConnectError } from '../pool/connectReady';
import { mapRedisError } from '../pool/redisErrors';
import type { PoolApi } from '../pool/types';
import { splitAddress } from './address';
import { parseClusterInfo } from './clusterInfo';

/** Settles like `p`, or rejects with a TIMEOUT AppError after `ms`; the timer never outlives it. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError('TIMEOUT', `no answer within ${ms} ms to ${what}`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** A short phrase for a failed poll: "connection refused at 10.0.0.5:6379", "no answer within 1000 ms to INFO". */
export function describeError(err: unknown, address: string): string {
  if (err instanceof ConnectError) return err.detail;
  if (err instanceof AppError) return err.message;
  const { host, port } = splitAddress(address);
  return mapRedisError(err, { host, port }).detail;
}

/** INFO <section> of one node over the pool's monitoring connection to it. */
export async function fetchInfo(pool: PoolApi, connectionId: string, address: string, section: string): Promise<InfoSections> {
  const redis = await pool.node(connectionId, address);
  return parseInfo(await redis.info(section));
}

/** One poll of one node: INFO ALL, and for a cluster node CLUSTER INFO pipelined on the same connection. */
export interface NodePoll {
  sections: InfoSections;
  cluster?: Record<string, string>;
}

export async function pollNode(pool: PoolApi, connectionId: string, address: string, clusterInfo: boolean): Promise<NodePoll> {
  return pollClient(await pool.node(connectionId, address), clusterInfo);
}

/** The same poll on a connection the caller holds (the poller keeps it, to tell a slow node from a lost one). */
export async function pollClient(redis: Redis, clusterInfo: boolean): Promise<NodePoll> {
  if (!clusterInfo) return { sections: parseInfo(await redis.info('all')) };
  const [info, cluster] = await Promise.all([redis.info('all'), redis.call('CLUSTER', 'INFO')]);
  return { sections: parseInfo(info), cluster: parseClusterInfo(String(cluster)) };
}
