import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec, profileRegistry, sentinelSpec, specFor } from '../../../testing/profiles';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { useRedis } from '../../../testing/redis';
import { useSentinel } from '../../../testing/sentinel';
import { Pool } from '../pool/pool';
import { pageNodes, type ClusterNodes, type NodeDiscovery, type PageNodes, type ProfileNode } from '../pool/profileNodes';
import { MetricsHub } from './metricsHub';

// The pool's pageNodes is the one way a page finds a profile's nodes; outside a cluster it
// stands on MetricsHub's discovery, so it is tested here, with both, on the four topologies.

const solo = useRedis();
const sentinels = useSentinel();
const cluster = useCluster();
let set: ReplicaSet;
let pool: Pool;
let hub: MetricsHub;
/** The discovery, with a count of the calls it took. */
let asked = 0;
let discovery: NodeDiscovery;
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;
const page = (kind: ClusterNodes): PageNodes => pageNodes(pool, discovery, kind);

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 2 });
  pool = new Pool(
    profileRegistry({
      solo: specFor(solo()),
      tree: specFor(set.master),
      ha: sentinelSpec(sentinels()),
      shards: clusterSpec(cluster().addresses),
    }),
  );
  hub = new MetricsHub({ pool });
  discovery = {
    nodes: (id) => (asked++, hub.nodes(id)),
    nodeOf: (id, address) => (asked++, hub.nodeOf(id, address)),
  };
}, 60_000);
afterAll(async () => {
  await hub.shutdown();
  await pool.shutdown();
  await set.stop();
});

/** Each replica comes after its own master: a shard (or a replication tree) reads as one group. */
function expectGrouped(nodes: readonly ProfileNode[]): void {
  nodes.forEach((n, i) => {
    if (n.role !== 'master') expect(nodes.slice(0, i).some((m) => m.role === 'master' && m.address === n.master)).toBe(true);
  });
}

describe('a profile’s nodes as a page gets them', () => {
  it('standalone: the one server, whichever way a cluster would be read; no address: its own', async () => {
    for (const kind of ['listed', 'asked'] as const) {
      expect(await page(kind).nodes('solo')).toEqual([{ address: addr(solo()), role: 'master', up: true }]);
      expect(await page(kind).node('solo', undefined)).toBe(addr(solo()));
    }
  });

  it('a replication tree: the master then its two replicas, each naming it; a replica’s address is accepted, another refused', async () => {
    for (const kind of ['listed', 'asked'] as const) {
      const nodes = await page(kind).nodes('tree');
      expect(nodes[0]).toEqual({ address: addr(set.master), role: 'master', up: true });
      expect(
        nodes
          .slice(1)
          .map((n) => n.address)
          .sort(),
      ).toEqual(set.replicas.map(addr).sort());
      expect(nodes.slice(1).every((n) => n.role === 'replica' && n.master === addr(set.master) && n.up)).toBe(true);
      const replica = addr(set.replicas[0]!);
      expect(await page(kind).node('tree', replica)).toBe(replica);
      await expect(page(kind).node('tree', addr(solo()))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('sentinel: the master and its replicas, never a sentinel; no address: the master', async () => {
    const s = sentinels();
    const master = addr(s.master);
    for (const kind of ['listed', 'asked'] as const) {
      const nodes = await page(kind).nodes('ha');
      expect(nodes.map((n) => n.address).sort()).toEqual([s.master, ...s.replicas].map(addr).sort());
      expect(nodes[0]).toMatchObject({ address: master, role: 'master' });
      expect(nodes.some((n) => s.sentinelAddresses.includes(n.address))).toBe(false);
      expectGrouped(nodes);
      expect(await page(kind).node('ha', undefined)).toBe(master);
      await expect(page(kind).node('ha', s.sentinelAddresses[0])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('cluster, listed: all 6 nodes as CLUSTER NODES has them, shard by shard, without the discovery; no address: a master', async () => {
    asked = 0;
    const nodes = await page('listed').nodes('shards');
    expect(nodes.map((n) => n.address).sort()).toEqual([...cluster().addresses].sort());
    expect(nodes.filter((n) => n.role === 'master')).toHaveLength(3);
    expect(nodes.every((n) => n.up)).toBe(true);
    expectGrouped(nodes);
    const first = await page('listed').node('shards', undefined);
    expect(cluster().masters.map(addr)).toContain(first);
    const replica = addr(cluster().replicas[0]!);
    expect(await page('listed').node('shards', replica)).toBe(replica);
    await expect(page('listed').node('shards', addr(solo()))).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'address' });
    expect(asked).toBe(0);
  });

  it('cluster, asked: the same 6 nodes, each asked by the discovery (up and role from its own INFO)', async () => {
    asked = 0;
    const nodes = await page('asked').nodes('shards');
    expect(asked).toBe(1);
    expect(nodes.map((n) => n.address).sort()).toEqual([...cluster().addresses].sort());
    expect(
      nodes
        .filter((n) => n.role === 'master')
        .map((n) => n.address)
        .sort(),
    ).toEqual(cluster().masters.map(addr).sort());
    expect(nodes.every((n) => n.up)).toBe(true);
    expectGrouped(nodes);
  });
});
