import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec } from '../../../testing/profiles';
import type { RedisProcess } from '../../../testing/redis';
import { clientsRpc, type ClientsRpc } from './clientsRpcTestKit';

const cluster = useCluster();
let rpc: ClientsRpc;
const at = (p: RedisProcess) => `${p.host}:${p.port}`;

beforeAll(() => {
  rpc = clientsRpc([{ id: 'c', source: 'config', spec: clusterSpec(cluster().addresses) }]);
});
afterAll(async () => {
  await rpc.close();
});

describe('clients on a cluster', () => {
  it('lists every master and replica, shard by shard, each with its replication link and our connection', async () => {
    const list = await rpc.list('analyst', 'c');
    const c = cluster();
    expect(list.nodes.map((n) => n.address).sort()).toEqual(c.addresses.slice().sort());
    for (const n of list.nodes) {
      expect(n.error, n.address).toBeUndefined();
      expect(n.clients.some((x) => x.marks.includes('ours')), n.address).toBe(true);
      // A master serves its replica (flag S); a replica follows its master (flag M).
      expect(n.clients.some((x) => x.kind === (n.role === 'master' ? 'replica' : 'master')), n.address).toBe(true);
      expect(n.limits?.pubsub.hardBytes).toBe(32 * 1024 * 1024);
    }
    // Shard by shard: every replica straight after its master.
    list.nodes.forEach((n, i) => {
      if (n.role !== 'master') expect([list.nodes[i - 1]?.address, list.nodes[i - 1]?.master]).toContain(n.master);
    });
    expect(list.nodes.filter((n) => n.role === 'master').map((n) => n.address).sort()).toEqual(c.masters.map(at).sort());
  });

  it('kills a client by ID on the replica it is connected to, and only there', async () => {
    const replica = cluster().replicas[0] as RedisProcess;
    const victim = new Redis({ host: replica.host, port: replica.port, connectionName: 'cluster-victim', lazyConnect: true, retryStrategy: () => null });
    await victim.connect();
    const id = String(await victim.client('ID'));
    // Client ids are per server: the victim is listed on its replica alone.
    const before = (await rpc.list('ops', 'c')).nodes.filter((n) => n.clients.some((x) => x.name === 'cluster-victim' && x.id === id));
    expect(before.map((n) => n.address)).toEqual([at(replica)]);
    const r = await rpc.as('ops').invoke('clients.kill', { profileId: 'c', address: at(replica), id, confirm: id });
    expect(r).toMatchObject({ killed: true, client: { id, name: 'cluster-victim' } });
    const after = (await rpc.list('ops', 'c')).nodes.find((n) => n.address === at(replica));
    expect(after?.clients.some((x) => x.name === 'cluster-victim')).toBe(false);
    victim.disconnect();
  });
});
