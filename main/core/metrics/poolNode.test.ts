import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientsNamed, closeAdmins, eventually } from '../../../testing/redis';
import { replicaArgs, startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { spawnRedisServer } from '../redisProcess/spawnRedisServer';
import type { Pool } from '../pool/pool';
import { poolFor } from './metricsTestKit';

// Pool.node() lives in main/core/pool; its tests sit here, with the replica set the metrics tests use.
let set: ReplicaSet;
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 2, password: 'pw' });
});
afterAll(async () => {
  await closeAdmins();
  await set.stop();
});

describe('Pool.node', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = poolFor({ p: set.master }, 'pw');
  });
  afterAll(() => pool.shutdown());

  it("reaches another node with the profile's credentials, one monitoring connection per (profile, address)", async () => {
    const replica = set.replicas[0]!;
    const [a, b] = await Promise.all([pool.node('p', addr(replica)), pool.node('p', addr(replica))]);
    expect(a).toBe(b);
    expect(await a.info('server')).toContain(`tcp_port:${replica.port}`);
    expect(a.options.enableOfflineQueue).toBe(false);
    expect(a.options.commandTimeout).toBeGreaterThan(0);
    const admin = await adminClient(replica, { password: 'pw' });
    expect(await clientsNamed(admin, 'cacheboard:monitoring:p')).toHaveLength(1);
  });

  it("gives the profile's own address its monitoring connection", async () => {
    expect(await pool.node('p', addr(set.master))).toBe(await pool.monitoring('p'));
  });

  it('refuses an address that is not host:port', async () => {
    await expect(pool.node('p', 'no-port')).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it("a node that is down does not change the profile's own connection state", async () => {
    await expect(pool.node('p', '127.0.0.1:1')).rejects.toMatchObject({ code: 'UNREACHABLE' });
    expect(pool.states()).toEqual([expect.objectContaining({ profileId: 'p', state: 'ready' })]);
  });

  it('closeProfile closes node connections too', async () => {
    const replica = set.replicas[1]!;
    await pool.node('p', addr(replica));
    const admin = await adminClient(replica, { password: 'pw' });
    expect(await clientsNamed(admin, 'cacheboard:')).toHaveLength(1);
    await pool.closeProfile('p');
    expect(await eventually(async () => (await clientsNamed(admin, 'cacheboard:')).length === 0, 2_000)).toBe(true);
  });

  it('a killed node fails commands at once instead of queueing them, and comes back on its own', async () => {
    const victim = set.replicas[0]!;
    const conn = await pool.node('p', addr(victim));
    expect(await conn.ping()).toBe('PONG');
    victim.kill('SIGKILL');
    await eventually(() => conn.status !== 'ready', 2_000);
    const t0 = Date.now();
    await expect(conn.info()).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(100);
    const back = await spawnRedisServer({ port: victim.port, password: 'pw', args: replicaArgs(set.master, 'pw') });
    set.replicas[0] = back; // so the set's stop() stops it
    const answers = async (): Promise<boolean> => (await conn.ping().catch(() => '')) === 'PONG';
    // The same client reconnects with backoff: no new connection needed from the pool.
    expect(await eventually(answers, 8_000, 100)).toBe(true);
    expect(await pool.node('p', addr(back))).toBe(conn);
  });
});
