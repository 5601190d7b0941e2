import type { Redis } from 'ioredis';
import { AppError, type ErrorCode } from '../../../app/errors';
import { toAppError } from '../pool/redisErrors';

/** A node of the profile as its servers list it (MetricsHub.nodes: a replication tree, a cluster, a sentinel set). */
export interface ConfigNodeRef {
  address: string;
  role: string;
  master?: string;
  up: boolean;
}

/** How the config core reaches a profile's nodes: listed by the profile's own servers, never typed by a user. */
export interface NodeAccess {
  topology: 'standalone' | 'cluster' | 'sentinel';
  list(): Promise<ConfigNodeRef[]>;
  /**
   * The pool's monitoring connection to the node (PoolApi.node): its short command timeout
   * (2 s) bounds what a hung node costs a read or a write, so no timer of our own is needed.
   */
  connect(address: string): Promise<Redis>;
}

/** Most nodes one call reads or writes (MetricsHub's discovery stops there too). */
export const MAX_CONFIG_NODES = 64;
/** Nodes asked at once: a 64-node cluster is read in 8 waves, not 64 sockets' worth at a time. */
const PARALLEL = 8;

/** `fn` over `items`, at most PARALLEL at a time, results in the items' order. */
export async function eachNode<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return out;
}

/**
 * The nodes a write goes to: the one named (it must be one the servers list: the connection
 * carries the profile's password, so never an arbitrary host), or every node.
 */
export async function targetNodes(access: NodeAccess, target: { scope: 'node'; address: string } | { scope: 'every' }): Promise<ConfigNodeRef[]> {
  const nodes = (await access.list()).slice(0, MAX_CONFIG_NODES);
  if (target.scope === 'every') return nodes;
  const node = nodes.find((n) => n.address === target.address);
  if (node === undefined) {
    throw new AppError('NOT_FOUND', `${target.address} is not a node of this profile (as its servers list them now).`, 'target.address');
  }
  return [node];
}

/** A node's connection, or why there is none (as the node's own result: a write goes on elsewhere). */
export async function reach(access: NodeAccess, address: string): Promise<{ redis: Redis } | { error: { code: ErrorCode; message: string } }> {
  try {
    return { redis: await access.connect(address) };
  } catch (err) {
    const e = toAppError(err);
    return { error: { code: e.code, message: e.message } };
  }
}
