import type { Redis } from 'ioredis';
import { MAX_OVERVIEW_CHANNELS, type PubSubOverview } from '../../../app/schemas/pubsub';
import { mapRedisError } from '../pool/redisErrors';
import type { TopologyKind } from '../pool/types';
import { shownBytes } from './shownMessage';

export interface OverviewDeps {
  /** The profile's data nodes (its replication tree, or every cluster node), with their role and whether they answer. */
  nodes(connectionId: string): Promise<{ address: string; role: string; up: boolean }[]>;
  client(connectionId: string, address: string): Promise<Redis>;
  topology(connectionId: string): TopologyKind;
  /** Our own subscriber connections to `address` holding `name` (PubSubHub.ours). */
  ours(address: string, kind: 'channel' | 'shard', name: Buffer): number;
}

export interface CheckName {
  channel: Buffer;
  shard: boolean;
}

/** NUMSUB names per call: one reply stays small. */
const NUMSUB_CHUNK = 200;
/** Most channels in one overview, listed and asked together. */
const MAX_ROWS = 2 * MAX_OVERVIEW_CHANNELS;

interface NodeRead {
  numpat: number | null;
  listed: { channel: Buffer[]; shard: Buffer[] };
  more: number;
  error?: string;
}

const byBytes = (a: Buffer, b: Buffer) => Buffer.compare(a, b);

async function listNode(redis: Redis, cluster: boolean): Promise<NodeRead> {
  const [channels, numpat, shards] = await Promise.all([
    redis.callBuffer('PUBSUB', 'CHANNELS') as Promise<Buffer[]>,
    redis.call('PUBSUB', 'NUMPAT') as Promise<number>,
    cluster ? (redis.callBuffer('PUBSUB', 'SHARDCHANNELS') as Promise<Buffer[]>) : Promise.resolve([] as Buffer[]),
  ]);
  const keep = (list: Buffer[]) => [...list].sort(byBytes).slice(0, MAX_OVERVIEW_CHANNELS);
  const more = Math.max(0, channels.length - MAX_OVERVIEW_CHANNELS) + Math.max(0, shards.length - MAX_OVERVIEW_CHANNELS);
  return { numpat: Number(numpat), listed: { channel: keep(channels), shard: keep(shards) }, more };
}

/** NUMSUB (or SHARDNUMSUB) of `names` on one node, in their order. */
async function countOn(redis: Redis, sub: 'NUMSUB' | 'SHARDNUMSUB', names: readonly Buffer[]): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < names.length; i += NUMSUB_CHUNK) {
    const reply = (await redis.callBuffer('PUBSUB', sub, ...names.slice(i, i + NUMSUB_CHUNK))) as unknown[];
    for (let j = 1; j < reply.length; j += 2) out.push(Number(reply[j]));
  }
  return out;
}

/** Names once each (by their bytes), the asked ones first, at most MAX_ROWS. */
function union(asked: readonly Buffer[], listed: readonly Buffer[][]): { names: Buffer[]; asked: Set<string> } {
  const seen = new Map<string, Buffer>();
  for (const n of asked) seen.set(n.toString('latin1'), n);
  const askedKeys = new Set(seen.keys());
  for (const n of listed.flat().sort(byBytes)) {
    if (seen.size >= MAX_ROWS) break;
    seen.set(n.toString('latin1'), n);
  }
  return { names: [...seen.values()], asked: askedKeys };
}

/**
 * What every node's PUBSUB says: the channels (and on a cluster the shard channels)
 * with subscribers there, each counted on every node (NUMSUB is per node: a subscriber
 * on a replica hears its master's messages, and a cluster forwards classic messages to
 * every node), and NUMPAT. Channels the page asks about are counted too, listed or
 * not: that is how a channel nobody consumes shows up at all. Cacheboard's own
 * subscriber connections are counted apart, so a channel only this page listens to
 * is still flagged as having no subscriber.
 */
export async function pubsubOverview(deps: OverviewDeps, connectionId: string, check: readonly CheckName[]): Promise<PubSubOverview> {
  const topology = deps.topology(connectionId);
  const cluster = topology === 'cluster';
  const nodes = (await deps.nodes(connectionId)).filter((n) => n.role !== 'sentinel');
  const clients = new Map<string, Redis>();
  const reads: NodeRead[] = await Promise.all(
    nodes.map(async (n): Promise<NodeRead> => {
      if (!n.up) return { numpat: null, listed: { channel: [], shard: [] }, more: 0, error: 'not reachable' };
      try {
        const redis = await deps.client(connectionId, n.address);
        clients.set(n.address, redis);
        return await listNode(redis, cluster);
      } catch (e) {
        return { numpat: null, listed: { channel: [], shard: [] }, more: 0, error: mapRedisError(e).message };
      }
    }),
  );
  const classic = union(
    check.filter((c) => !c.shard).map((c) => c.channel),
    reads.map((r) => r.listed.channel),
  );
  const shard = union(
    check.filter((c) => c.shard).map((c) => c.channel),
    reads.map((r) => r.listed.shard),
  );
  const counts = await Promise.all(
    nodes.map(async (n, i) => {
      const redis = clients.get(n.address);
      if (redis === undefined || reads[i]?.error !== undefined) return undefined;
      try {
        const [c, s] = await Promise.all([
          countOn(redis, 'NUMSUB', classic.names),
          cluster || shard.names.length > 0 ? countOn(redis, 'SHARDNUMSUB', shard.names) : Promise.resolve([]),
        ]);
        return { channel: c, shard: s };
      } catch (e) {
        const r = reads[i];
        if (r !== undefined) r.error = mapRedisError(e).message;
        return undefined;
      }
    }),
  );
  const rows = (kind: 'channel' | 'shard', u: ReturnType<typeof union>) =>
    u.names.map((name, row) => {
      const perNode = counts.map((c) => c?.[kind][row] ?? null);
      const total = perNode.reduce<number>((sum, v) => sum + (v ?? 0), 0);
      const ours = nodes.reduce((sum, n, i) => sum + (perNode[i] === null ? 0 : deps.ours(n.address, kind, name)), 0);
      const key = name.toString('latin1');
      return {
        name: shownBytes({ bytes: name, length: name.length }),
        b64: name.toString('base64'),
        shard: kind === 'shard',
        perNode,
        total,
        ours,
        noSubscriber: total - ours <= 0,
        asked: u.asked.has(key),
      };
    });
  return {
    topology,
    at: Date.now(),
    nodes: nodes.map((n, i) => {
      const r = reads[i] as NodeRead;
      return { address: n.address, role: n.role, up: n.up, numpat: r.numpat, more: r.more, ...(r.error === undefined ? {} : { error: r.error }) };
    }),
    channels: [...rows('channel', classic), ...rows('shard', shard)],
  };
}
