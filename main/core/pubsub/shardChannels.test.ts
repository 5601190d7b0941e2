import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec, profileRegistry } from '../../../testing/profiles';
import { eventually } from '../../../testing/redis';
import { MetricsHub } from '../metrics';
import { Pool } from '../pool/pool';
import { keySlot } from '../resp/slot';
import { profileOverview, publishOn } from './profilePubSub';
import { PubSubHub } from './pubsubHub';
import { pubsubPlanner } from './pubsubPlan';
import { names, recorder, text, type Recorded } from './pubsubTestKit';

// Shard channels on a cluster that stays put (pubsubCluster.test.ts moves slots and kills masters):
// where each is subscribed, where SPUBLISH goes, and what the overview lists.
const cluster = useCluster();
let pool: Pool;
let hub: PubSubHub;
let metrics: MetricsHub;
const clients: (Redis | Cluster)[] = [];

beforeAll(() => {
  const registry = profileRegistry({ c: clusterSpec(cluster().addresses) });
  pool = new Pool(registry);
  hub = new PubSubHub({ plan: pubsubPlanner({ profile: registry.resolve, pool }) });
  metrics = new MetricsHub({ pool });
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  hub.shutdown();
  await metrics.shutdown();
  await pool.shutdown();
});

const live = (r: Recorded) => eventually(() => r.live(), 8000);

/** The master serving `slot`, as CLUSTER SLOTS names it. */
async function ownerOf(slot: number): Promise<string> {
  const [host = '127.0.0.1', port] = (cluster().addresses[0] ?? '').split(':');
  const r = new Redis({ host, port: Number(port) });
  clients.push(r);
  const slots = (await r.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const range = slots.find(([a, b]) => slot >= a && slot <= b);
  return `${range?.[2][0]}:${range?.[2][1]}`;
}

/** Three shard channels, each in another master's slots. */
function spread(): string[] {
  const out: string[] = [];
  const ranges = [5460, 10922, 16383];
  for (let i = 0; out.length < 3; i++) {
    const name = `orders:${i}`;
    const shard = ranges.findIndex((top) => keySlot(Buffer.from(name)) <= top);
    if (!out.some((o) => ranges.findIndex((top) => keySlot(Buffer.from(o)) <= top) === shard)) out.push(name);
  }
  return out;
}

describe('shard channels on a Redis Cluster', () => {
  it('subscribes each shard channel on the master that owns its slot, and hears SPUBLISH from anywhere', async () => {
    const shards = spread();
    const r = recorder();
    const stop = await hub.watch('c', names({ shardChannels: shards, channels: ['broadcast'] }), r.viewer);
    try {
      await live(r);
      for (const name of shards) {
        const slot = keySlot(Buffer.from(name));
        const node = r.plan.find((n) => n.shardChannels.some((s) => s.name.toString() === name));
        expect(node?.shardChannels.find((s) => s.name.toString() === name)?.slot).toBe(slot);
        expect(node?.address).toBe(await ownerOf(slot));
      }
      expect(new Set(r.plan.map((n) => n.address)).size).toBe(3);

      const writer = new Cluster([{ host: '127.0.0.1', port: Number(cluster().addresses[0]?.split(':')[1]) }]);
      clients.push(writer);
      for (const name of shards) await writer.call('SPUBLISH', name, `to ${name}`);
      // A classic PUBLISH sent to any node reaches a subscriber on another: the cluster forwards it.
      const elsewhere = cluster().masters.find((m) => `${m.host}:${m.port}` !== r.plan.find((n) => n.channels.length > 0)?.address)!;
      const direct = new Redis({ host: elsewhere.host, port: elsewhere.port });
      clients.push(direct);
      await direct.publish('broadcast', 'everywhere');
      expect(await eventually(() => r.messages().length === 4, 5000)).toBe(true);
      expect(
        r
          .messages()
          .filter((m) => m.kind === 'smessage')
          .map((m) => [m.node, text(m.channel), text(m.payload)])
          .sort(),
      ).toEqual((await Promise.all(shards.map(async (n) => [await ownerOf(keySlot(Buffer.from(n))), n, `to ${n}`]))).sort());
      expect(
        r
          .messages()
          .find((m) => m.kind === 'message')
          ?.payload.bytes.toString(),
      ).toBe('everywhere');
    } finally {
      stop();
    }
  });

  it('SPUBLISH goes to the owning master and returns its receivers; the overview lists the shard channel there', async () => {
    const [name = 'orders:0'] = spread();
    const r = recorder();
    const stop = await hub.watch('c', names({ shardChannels: [name] }), r.viewer);
    try {
      await live(r);
      const out = await publishOn(pool, 'c', Buffer.from(name), Buffer.from('x'), true);
      const owner = await ownerOf(keySlot(Buffer.from(name)));
      expect(out).toMatchObject({ command: 'SPUBLISH', node: owner, slot: keySlot(Buffer.from(name)), receivers: 1, countedOn: 'node' });
      expect(await eventually(() => r.messages().length > 0)).toBe(true);

      const o = await profileOverview({ pool, discovery: metrics, hub }, 'c', [{ channel: Buffer.from('orders:none'), shard: true }]);
      expect(o.topology).toBe('cluster');
      expect(o.nodes).toHaveLength(6);
      const row = o.channels.find((c) => c.shard && c.name.text === name);
      expect(row).toMatchObject({ total: 1, ours: 1, noSubscriber: true });
      expect(row?.perNode[o.nodes.findIndex((n) => n.address === owner)]).toBe(1);
      expect(o.channels.find((c) => c.name.text === 'orders:none')).toMatchObject({ shard: true, total: 0, noSubscriber: true, asked: true });
    } finally {
      stop();
    }
  });
});
