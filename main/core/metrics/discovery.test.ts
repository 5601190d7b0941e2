import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, eventually, startRedis } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import type { Pool } from '../pool/pool';
import { discoverTopology, type FetchInfo } from './discovery';
import { fetchInfo } from './nodeInfo';
import { poolFor } from './metricsTestKit';

let set: ReplicaSet;
let pool: Pool;
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;
const fetchFor =
  (connectionId: string): FetchInfo =>
  (address) =>
    fetchInfo(pool, connectionId, address, 'default');

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 2 });
  pool = poolFor({ m: set.master, r: set.replicas[0]!, r2: set.replicas[1]! });
});
afterAll(async () => {
  await pool.shutdown();
  await closeAdmins();
  await set.stop();
});

describe('discoverTopology', () => {
  it('from the master finds both replicas, master first', async () => {
    const d = await discoverTopology(addr(set.master), fetchFor('m'));
    const replicas = set.replicas.map(addr).sort();
    expect(d.nodes.map((n) => ({ address: n.address, role: n.role, master: n.master, up: n.up }))).toEqual([
      { address: addr(set.master), role: 'master', master: undefined, up: true },
      ...replicas.map((address) => ({ address, role: 'replica', master: addr(set.master), up: true })),
    ]);
  });

  it('from a replica climbs to the master first and finds the same set', async () => {
    const fromMaster = await discoverTopology(addr(set.master), fetchFor('m'));
    const fromReplica = await discoverTopology(addr(set.replicas[1]!), fetchFor('r2'));
    expect(fromReplica.nodes.map((n) => n.address)).toEqual(fromMaster.nodes.map((n) => n.address));
    expect(fromReplica.nodes[0]).toMatchObject({ address: addr(set.master), role: 'master' });
  });

  it('stops at maxNodes', async () => {
    const d = await discoverTopology(addr(set.master), fetchFor('m'), { maxNodes: 2 });
    expect(d.nodes).toHaveLength(2);
  });

  it('lists an unreachable start node as down, with the reason', async () => {
    const d = await discoverTopology('127.0.0.1:1', fetchFor('m'));
    expect(d.nodes).toEqual([expect.objectContaining({ address: '127.0.0.1:1', up: false, role: 'unknown', error: expect.any(String) })]);
  });

  it('ends in a replication loop (A replicaof B, B replicaof A) with each node once', async () => {
    const a = await startRedis();
    const b = await startRedis();
    try {
      await (await adminClient(a)).replicaof('127.0.0.1', b.port);
      await (await adminClient(b)).replicaof('127.0.0.1', a.port);
      const loopPool = poolFor({ a });
      try {
        // Both now name the other as master; neither link can come up (a replica without a master link refuses PSYNC).
        expect(await eventually(async () => (await loopPool.node('a', addr(b)).then((r) => r.info('replication'))).includes(`master_port:${a.port}`))).toBe(
          true,
        );
        const d = await discoverTopology(addr(a), (x) => fetchInfo(loopPool, 'a', x, 'default'));
        expect(d.nodes.map((n) => n.address).sort()).toEqual([addr(a), addr(b)].sort());
      } finally {
        await loopPool.shutdown();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('tells nodes apart by run_id: a second name of a node becomes an alias', async () => {
    const d = await discoverTopology(`localhost:${set.replicas[0]!.port}`, async (address) => {
      return fetchInfo(pool, 'm', address.replace(/^localhost:/, '127.0.0.1:'), 'default');
    });
    // The master lists the replica by IP; its INFO shows the run_id already seen under "localhost".
    expect(d.nodes).toHaveLength(3);
    expect(d.aliases.get(addr(set.replicas[0]!))).toBe(`localhost:${set.replicas[0]!.port}`);
  });
});
