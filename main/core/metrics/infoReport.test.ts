import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins } from '../../../testing/redis';
import { startReplicaSet } from '../../../testing/replication';
import { snapshotAll, toInfoJson } from './infoReport';
import { poolFor } from './metricsTestKit';

const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;
afterAll(closeAdmins);

const NODE_KEYS = [
  'address',
  'role',
  'up',
  'ops_per_sec',
  'used_memory',
  'maxmemory',
  'connected_clients',
  'master_link_status',
  'replicas',
  'rdb_bgsave_in_progress',
  'rdb_last_bgsave_status',
  'keyspace',
];

describe('info report', () => {
  it('snapshots every node of the tree into the documented JSON', async () => {
    const set = await startReplicaSet({ replicas: 2 });
    const pool = poolFor({ m: set.master });
    try {
      const admin = await adminClient(set.master);
      await admin.set('a', '1');
      await admin.set('b', '2', 'EX', 100);
      await admin.wait(2, 1000);
      const json = toInfoJson(await snapshotAll(pool, 'm'));
      expect(json.nodes.map((n) => Object.keys(n))).toEqual([NODE_KEYS, NODE_KEYS, NODE_KEYS]);
      const [master, ...replicas] = json.nodes;
      expect(master).toMatchObject({
        address: addr(set.master),
        role: 'master',
        up: true,
        master_link_status: null,
        rdb_bgsave_in_progress: false,
        rdb_last_bgsave_status: 'ok',
        keyspace: { db0: { keys: 2, expires: 1 } },
      });
      expect(master?.replicas?.map((r) => r.address).sort()).toEqual(set.replicas.map(addr).sort());
      expect(master?.replicas?.[0]).toEqual({ address: expect.any(String), state: 'online', offset: expect.any(Number), lag_bytes: expect.any(Number) });
      for (const r of replicas) expect(r).toMatchObject({ role: 'replica', up: true, master_link_status: 'up', replicas: [] });
      expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    } finally {
      await pool.shutdown();
      await set.stop();
    }
  });

  it('lists a down master with nulls when started from its replica', async () => {
    const set = await startReplicaSet({ replicas: 1 });
    const pool = poolFor({ r: set.replicas[0]! });
    try {
      set.master.kill('SIGKILL');
      const json = toInfoJson(await snapshotAll(pool, 'r'));
      expect(json.nodes[0]).toEqual({
        address: addr(set.master),
        role: null,
        up: false,
        ops_per_sec: null,
        used_memory: null,
        maxmemory: null,
        connected_clients: null,
        master_link_status: null,
        replicas: null,
        rdb_bgsave_in_progress: null,
        rdb_last_bgsave_status: null,
        keyspace: null,
      });
      expect(json.nodes[1]).toMatchObject({ address: addr(set.replicas[0]!), up: true, role: 'replica' });
    } finally {
      await pool.shutdown();
      await set.stop();
    }
  });
});
