import type { Cluster, Redis } from 'ioredis';
import { AppError } from '../../../app/errors';

/** What the pool holds: a connection to one server, or an ioredis Cluster over all of a cluster's nodes. */
export type Client = Redis | Cluster;

export function isCluster(c: Client): c is Cluster {
  return c.isCluster;
}

/** Commands sent and not yet answered, over every node of a Cluster. */
export function pendingCommands(c: Client): number {
  if (!isCluster(c)) return c.commandQueue.length;
  return c.nodes().reduce((n, node) => n + node.commandQueue.length, 0);
}

export function asRedis(c: Client): Redis {
  if (isCluster(c)) throw new AppError('INTERNAL', 'expected a single-node connection, got a Cluster client');
  return c;
}

export function asCluster(c: Client): Cluster {
  if (!isCluster(c)) throw new AppError('INTERNAL', 'expected a Cluster client, got a single-node connection');
  return c;
}
