import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec, profileRegistry } from '../../../testing/profiles';
import { eventually } from '../../../testing/redis';
import { Pool } from '../pool/pool';
import { keySlot } from '../resp/slot';
import { PubSubHub } from './pubsubHub';
import { pubsubPlanner } from './pubsubPlan';
import { names, recorder, text, type Recorded } from './pubsubTestKit';

// Short enough that the cluster marks a killed master failing quickly, and CLUSTER NODES says so.
const cluster = useCluster({ nodeTimeoutMs: 1_000 });
let pool: Pool;
let hub: PubSubHub;
const clients = new Map<string, Redis>();

beforeAll(() => {
  const addresses = cluster().addresses;
  // Every node a seed: the test kills one.
  const seeds = addresses.map((a) => ({ host: '127.0.0.1', port: Number(a.split(':')[1]) }));
  const registry = profileRegistry({ c: clusterSpec(addresses, { topology: { kind: 'cluster', seeds } }) });
  pool = new Pool(registry);
  hub = new PubSubHub({ plan: pubsubPlanner({ profile: registry.resolve, pool }), statsMs: 100 });
});
afterAll(async () => {
  hub.shutdown();
  await pool.shutdown();
  for (const c of clients.values()) c.disconnect();
});

const address = (n: { host: string; port: number }) => `${n.host}:${n.port}`;
const masters = () => cluster().masters.map(address);

function direct(at: string): Redis {
  let c = clients.get(at);
  if (c === undefined) {
    c = new Redis({ host: '127.0.0.1', port: Number(at.split(':')[1]), maxRetriesPerRequest: 1, retryStrategy: () => null });
    clients.set(at, c);
  }
  return c;
}

/** The master serving `slot`, as `node` sees the cluster. */
async function ownerOf(slot: number, node: string): Promise<string> {
  const slots = (await direct(node).call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const range = slots.find(([a, b]) => slot >= a && slot <= b);
  return `${range?.[2][0]}:${range?.[2][1]}`;
}

/** A shard channel whose slot `owner` serves. */
async function shardOn(owner: string, prefix: string): Promise<string> {
  for (let i = 0; ; i++) if ((await ownerOf(keySlot(Buffer.from(`${prefix}${i}`)), owner)) === owner) return `${prefix}${i}`;
}

/** Counts add up and every message received was delivered (the viewer keeps up). */
async function exact(r: Recorded): Promise<void> {
  const got = r.messages().length;
  expect(await eventually(() => r.stats.at(-1)?.received === got)).toBe(true);
  expect(r.stats.at(-1)).toMatchObject({ received: got, delivered: got, dropped: 0 });
}

describe('Pub/Sub on a cluster whose nodes change', () => {
  it('follows a shard channel whose slot moved to another master: SPUBLISH on the new owner reaches the viewer', async () => {
    const [from = '', to = ''] = masters();
    const name = await shardOn(from, 'moving:');
    const slot = keySlot(Buffer.from(name));
    const r = recorder();
    const stop = await hub.watch('c', names({ shardChannels: [name] }), r.viewer);
    expect(await eventually(() => r.live(), 8000)).toBe(true);
    expect(r.plan.map((p) => p.address)).toEqual([from]);
    await direct(from).call('SPUBLISH', name, 'before the move');

    // The slot is empty: moved as redis-cli --cluster reshard does, without MIGRATE. Redis 7 then drops our SSUBSCRIBE on `from`.
    const [fromId, toId] = await Promise.all([direct(from).call('CLUSTER', 'MYID'), direct(to).call('CLUSTER', 'MYID')]);
    await direct(to).call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', String(fromId));
    await direct(from).call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', String(toId));
    for (const m of [to, from, ...masters().filter((a) => a !== to && a !== from)]) await direct(m).call('CLUSTER', 'SETSLOT', slot, 'NODE', String(toId));

    expect(await eventually(() => r.live() && r.plan[0]?.address === to, 8000)).toBe(true);
    expect(r.plan).toHaveLength(1);
    expect(r.plan[0]?.shardChannels.map((s) => [text({ bytes: s.name }), s.slot])).toEqual([[name, slot]]);
    expect(r.notices).toEqual([expect.stringContaining(`moved from ${from} to ${to}`)]);
    // Our subscriber is on the new owner, and no longer on the old one.
    expect(await direct(to).call('SPUBLISH', name, 'after the move')).toBe(1);
    expect(await eventually(() => r.messages().length === 2)).toBe(true);
    expect(r.messages().map((m) => [m.node, text(m.payload)])).toEqual([
      [from, 'before the move'],
      [to, 'after the move'],
    ]);
    await exact(r);
    expect(r.ended).toEqual([]);
    stop();
  }, 30_000);

  // Last: it kills a master.
  it('leaves a master that was killed: after its replica takes over, PUBLISH and SPUBLISH reach the viewer, and the gap is marked', async () => {
    // Where the planner puts channels and patterns: the first master by address.
    const victim = [...masters()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))[0] ?? '';
    const shard = await shardOn(victim, 'failover:');
    const r = recorder();
    const stop = await hub.watch('c', names({ channels: ['news'], patterns: ['news.*'], shardChannels: [shard] }), r.viewer);
    expect(await eventually(() => r.live(), 8000)).toBe(true);
    expect(r.plan.map((p) => p.address)).toEqual([victim]);
    await direct(victim).publish('news', 'before');
    expect(await eventually(() => r.messages().length === 1)).toBe(true);

    let promoted = '';
    for (const a of cluster().replicas.map(address)) {
      const info = String(await direct(a).info('replication'));
      if (info.includes(`master_port:${victim.split(':')[1]}\r\n`)) promoted = a;
    }
    expect(promoted).not.toBe('');
    const killedAt = Date.now();
    cluster()
      .nodes.find((n) => address(n) === victim)
      ?.kill('SIGKILL');
    await direct(promoted).call('CLUSTER', 'FAILOVER', 'TAKEOVER');
    expect(await eventually(async () => (await ownerOf(keySlot(Buffer.from(shard)), promoted)) === promoted, 10_000)).toBe(true);

    expect(await eventually(() => r.live() && r.plan.every((p) => p.address !== victim), 20_000)).toBe(true);
    expect(r.plan.find((p) => p.shardChannels.length > 0)?.address).toBe(promoted);
    const classic = r.plan.find((p) => p.channels.length > 0)?.address ?? '';
    // Any master now: the other two, or the replica that took over.
    expect([...masters().filter((m) => m !== victim), promoted]).toContain(classic);
    const gap = r.gaps.find((g) => g.address === victim);
    expect(gap?.from).toBeLessThanOrEqual(killedAt);
    expect(gap?.to).toBeGreaterThan(killedAt);
    expect(gap?.reason).toContain('could not be reached');

    // Published after the failover: on a third node for the channel (the cluster forwards it), on the new owner for the shard channel.
    await direct(masters().find((m) => m !== victim && m !== classic) ?? promoted).publish('news.eu', 'after');
    expect(await direct(promoted).call('SPUBLISH', shard, 'after-shard')).toBe(1);
    expect(await eventually(() => r.messages().length === 3)).toBe(true);
    expect(
      r
        .messages()
        .slice(1)
        .map((m) => [m.kind, text(m.channel), text(m.payload)])
        .sort(),
    ).toEqual(
      [
        ['pmessage', 'news.eu', 'after'],
        ['smessage', shard, 'after-shard'],
      ].sort(),
    );
    await exact(r);
    expect(r.ended).toEqual([]);
    stop();
  }, 60_000);
});
