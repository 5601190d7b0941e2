import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec } from '../../../testing/profiles';
import { eventually } from '../../../testing/redis';
import { keySlot } from '../../core/resp/slot';
import { b64, pubsubRpc, type PubSubRpc, type Watch } from './pubsubRpcTestKit';

const cluster = useCluster();
let rpc: PubSubRpc;
const clients: (Redis | Cluster)[] = [];

beforeAll(() => {
  rpc = pubsubRpc([{ id: 'c', source: 'config', spec: clusterSpec(cluster().addresses) }]);
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await rpc.close();
});

const live = (w: Watch) => eventually(() => w.live(), 8000);

/** The master serving `slot`, as CLUSTER SHARDS would name it. */
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

describe('Pub/Sub on a Redis Cluster', () => {
  it('subscribes each shard channel on the master that owns its slot, and hears SPUBLISH from anywhere', async () => {
    const names = spread();
    const w = rpc.watch('analyst', { profileId: 'c', shardChannels: names.map(b64), channels: [b64('broadcast')] });
    await live(w);
    const plan = w.of('plan')[0]!;
    for (const name of names) {
      const slot = keySlot(Buffer.from(name));
      const node = plan.nodes.find((n) => n.shardChannels.some((s) => s.name.text === name));
      expect(node?.shardChannels.find((s) => s.name.text === name)?.slot).toBe(slot);
      expect(node?.address).toBe(await ownerOf(slot));
    }
    expect(new Set(plan.nodes.map((n) => n.address)).size).toBe(3);

    const writer = new Cluster([{ host: '127.0.0.1', port: Number(cluster().addresses[0]?.split(':')[1]) }]);
    clients.push(writer);
    for (const name of names) await writer.call('SPUBLISH', name, `to ${name}`);
    // A classic PUBLISH sent to any node reaches a subscriber on another: the cluster forwards it.
    const elsewhere = cluster().masters.find((m) => `${m.host}:${m.port}` !== plan.nodes.find((n) => n.channels.length > 0)?.address)!;
    const direct = new Redis({ host: elsewhere.host, port: elsewhere.port });
    clients.push(direct);
    await direct.publish('broadcast', 'everywhere');
    const got = () => w.of('messages').flatMap((m) => m.messages);
    expect(await eventually(() => got().length === 4, 5000)).toBe(true);
    expect(got().filter((m) => m.kind === 'smessage').map((m) => [m.node, m.channel.text, m.payload.text]).sort()).toEqual(
      (await Promise.all(names.map(async (n) => [await ownerOf(keySlot(Buffer.from(n))), n, `to ${n}`]))).sort(),
    );
    expect(got().find((m) => m.kind === 'message')?.payload.text).toBe('everywhere');
    w.stop();
  });

  it('SPUBLISH goes to the owning master and returns its receivers; the overview lists the shard channel there', async () => {
    const [name = 'orders:0'] = spread();
    const w = rpc.watch('ops', { profileId: 'c', shardChannels: [b64(name)] });
    await live(w);
    const out = await rpc.as('ops').invoke('pubsub.publish', { profileId: 'c', channel: b64(name), payload: b64('x'), shard: true });
    const owner = await ownerOf(keySlot(Buffer.from(name)));
    expect(out).toMatchObject({ command: 'SPUBLISH', node: owner, slot: keySlot(Buffer.from(name)), receivers: 1, countedOn: 'node' });
    expect(await eventually(() => w.of('messages').some((m) => m.messages.length > 0))).toBe(true);

    const o = await rpc.as('ops').invoke('pubsub.overview', { profileId: 'c', check: [{ channel: b64('orders:none'), shard: true }] });
    expect(o.topology).toBe('cluster');
    expect(o.nodes).toHaveLength(6);
    const row = o.channels.find((c) => c.shard && c.name.text === name);
    expect(row).toMatchObject({ total: 1, ours: 1, noSubscriber: true });
    expect(row?.perNode[o.nodes.findIndex((n) => n.address === owner)]).toBe(1);
    expect(o.channels.find((c) => c.name.text === 'orders:none')).toMatchObject({ shard: true, total: 0, noSubscriber: true, asked: true });
    w.stop();
  });
});
