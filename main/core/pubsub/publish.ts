import type { Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import { toAppErrorFor } from '../pool/redisErrors';
import type { MasterNode, TopologyKind } from '../pool/types';
import { keySlot } from '../resp/slot';
import { firstMaster, ownerOf } from './pubsubPlan';
import { namesText } from './subscriberNode';

export interface PublishDeps {
  masters(connectionId: string): Promise<MasterNode[]>;
  client(connectionId: string, address: string): Promise<Redis>;
  topology(connectionId: string): TopologyKind;
}

export interface Published {
  command: 'PUBLISH' | 'SPUBLISH';
  node: string;
  slot?: number;
  receivers: number;
  countedOn: 'server' | 'node';
}

/**
 * PUBLISH, or SPUBLISH on the master owning the channel's slot, and the receiver count
 * Redis returns. On a cluster a classic message goes to the master our own
 * subscriptions use (firstMaster), and Redis counts only the receivers connected to the
 * node that took it, though it forwards the message to every node: `countedOn` says so.
 */
export async function publish(deps: PublishDeps, connectionId: string, channel: Buffer, payload: Buffer, shard: boolean): Promise<Published> {
  const cluster = deps.topology(connectionId) === 'cluster';
  const masters = await deps.masters(connectionId);
  const slot = shard ? keySlot(channel) : undefined;
  const node = slot !== undefined && cluster ? ownerOf(masters, slot) : firstMaster(masters);
  if (node === undefined) throw new AppError('UNREACHABLE', `No reachable master serves slot ${slot} of shard channel ${namesText([channel])}.`, 'channel');
  const command = shard ? 'SPUBLISH' : 'PUBLISH';
  const redis = await deps.client(connectionId, node.address);
  let receivers: number;
  try {
    receivers = Number(await redis.call(command, channel, payload));
  } catch (e) {
    throw toAppErrorFor(redis, e);
  }
  return { command, node: node.address, ...(slot === undefined ? {} : { slot }), receivers, countedOn: cluster ? 'node' : 'server' };
}
