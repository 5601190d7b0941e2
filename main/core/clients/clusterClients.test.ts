import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRows } from '../../../app/clientColumns';
import { ClientId, DEFAULT_IDLE_SECONDS } from '../../../app/schemas/clients';
import { ProfileId } from '../../../app/schemas/common';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec, profileRegistry } from '../../../testing/profiles';
import type { RedisProcess } from '../../../testing/redis';
import { MetricsHub } from '../metrics';
import { Pool } from '../pool/pool';
import type { ClientsService } from './clientsService';
import { profileClients } from './profileClients';

const cluster = useCluster();
let pool: Pool;
let metrics: MetricsHub;
let service: ClientsService;
const at = (p: RedisProcess) => `${p.host}:${p.port}`;

beforeAll(() => {
  pool = new Pool(profileRegistry({ c: clusterSpec(cluster().addresses) }));
  metrics = new MetricsHub({ pool });
  service = profileClients(pool, metrics);
});
afterAll(async () => {
  await metrics.shutdown();
  await pool.shutdown();
});

/** The page's list of a cluster, its columns turned into objects. */
async function listed() {
  const list = await service.list(ProfileId.parse('c'), 'c', DEFAULT_IDLE_SECONDS);
  return list.nodes.map((n) => ({ ...n, clients: clientRows(n.clients) }));
}

describe('the clients of a cluster', () => {
  it('lists every master and replica, shard by shard, each with its replication link and our connection', async () => {
    const nodes = await listed();
    const c = cluster();
    expect(nodes.map((n) => n.address).sort()).toEqual(c.addresses.slice().sort());
    for (const n of nodes) {
      expect(n.error, n.address).toBeUndefined();
      expect(
        n.clients.some((x) => x.marks.includes('ours')),
        n.address,
      ).toBe(true);
      // A master serves its replica (flag S); a replica follows its master (flag M).
      expect(
        n.clients.some((x) => x.kind === (n.role === 'master' ? 'replica' : 'master')),
        n.address,
      ).toBe(true);
      expect(n.limits?.pubsub.hardBytes).toBe(32 * 1024 * 1024);
    }
    // Shard by shard: every replica straight after its master.
    nodes.forEach((n, i) => {
      if (n.role !== 'master') expect([nodes[i - 1]?.address, nodes[i - 1]?.master]).toContain(n.master);
    });
    expect(
      nodes
        .filter((n) => n.role === 'master')
        .map((n) => n.address)
        .sort(),
    ).toEqual(c.masters.map(at).sort());
  });

  it('kills a client by ID on the replica it is connected to, and only there', async () => {
    const replica = cluster().replicas[0] as RedisProcess;
    const victim = new Redis({ host: replica.host, port: replica.port, connectionName: 'cluster-victim', lazyConnect: true, retryStrategy: () => null });
    await victim.connect();
    try {
      const id = String(await victim.client('ID'));
      // Client ids are per server: the victim is listed on its replica alone.
      const before = (await listed()).filter((n) => n.clients.some((x) => x.name === 'cluster-victim' && x.id === id));
      expect(before.map((n) => n.address)).toEqual([at(replica)]);
      expect(await service.kill('c', at(replica), ClientId.parse(id))).toMatchObject({ killed: true, client: { id, name: 'cluster-victim' } });
      const after = (await listed()).find((n) => n.address === at(replica));
      expect(after?.clients.some((x) => x.name === 'cluster-victim')).toBe(false);
    } finally {
      victim.disconnect();
    }
  });
});
