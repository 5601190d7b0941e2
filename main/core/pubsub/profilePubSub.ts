import type { PubSubOverview } from '../../../app/schemas/pubsub';
import { pageNodes, type NodeDiscovery } from '../pool/profileNodes';
import type { PoolApi } from '../pool/types';
import { pubsubOverview, type CheckName } from './overview';
import { publish, type Published } from './publish';
import type { PubSubHub, PubSubNames } from './pubsubHub';
import { namesText } from './subscriberNode';

/** Distinct byte strings (base64 as the contract sends them), in the order given: a name asked twice is subscribed once. */
function distinct(b64s: readonly string[]): Buffer[] {
  const seen = new Map<string, Buffer>();
  for (const s of b64s) seen.set(s, Buffer.from(s, 'base64'));
  return [...seen.values()];
}

/** The names a page asked to subscribe to, as bytes, each once. */
export function subscriptionNames(asked: { channels: readonly string[]; patterns: readonly string[]; shardChannels: readonly string[] }): PubSubNames {
  return { channels: distinct(asked.channels), patterns: distinct(asked.patterns), shardChannels: distinct(asked.shardChannels) };
}

/** What a subscription listens to, for the audit log: names escaped, at most three of each kind. */
export function subscribedText(n: PubSubNames): string {
  const parts = [
    ...(n.channels.length > 0 ? [`channels ${namesText(n.channels)}`] : []),
    ...(n.patterns.length > 0 ? [`patterns ${namesText(n.patterns)}`] : []),
    ...(n.shardChannels.length > 0 ? [`shard channels ${namesText(n.shardChannels)}`] : []),
  ];
  return parts.join('; ');
}

/** The overview of a connection's nodes as the Overview finds them (each asked, a cluster's too), our own subscribers counted apart. */
export function profileOverview(
  deps: { pool: Pick<PoolApi, 'node' | 'nodes' | 'topology'>; discovery: NodeDiscovery; hub: Pick<PubSubHub, 'ours'> },
  connectionId: string,
  check: readonly CheckName[],
): Promise<PubSubOverview> {
  const { pool, hub } = deps;
  const nodes = pageNodes(pool, deps.discovery, 'asked');
  return pubsubOverview(
    {
      nodes: (id) => nodes.nodes(id),
      client: (id, address) => pool.node(id, address),
      topology: (id) => pool.topology(id),
      ours: (address, kind, name) => hub.ours(address, kind, name),
    },
    connectionId,
    check,
  );
}

/** PUBLISH (or SPUBLISH) over the pool's connections to the connection's masters. */
export function publishOn(
  pool: Pick<PoolApi, 'masters' | 'node' | 'topology'>,
  connectionId: string,
  channel: Buffer,
  payload: Buffer,
  shard: boolean,
): Promise<Published> {
  return publish(
    { masters: (i) => pool.masters(i), client: (i, a) => pool.node(i, a), topology: (i) => pool.topology(i) },
    connectionId,
    channel,
    payload,
    shard,
  );
}
