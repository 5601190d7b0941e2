import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, startRedis, type RedisProcess } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';
import { poolFor } from './metricsTestKit';
import type { OpsActionRecord, OpsActionRefusal } from './types';

let set: ReplicaSet;
let aof: RedisProcess;
let pool: Pool;
let hub: MetricsHub;
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

/** The action's record: these servers run BGSAVE and BGREWRITEAOF, so a refusal fails the test. */
async function ran(run: Promise<OpsActionRecord | OpsActionRefusal>): Promise<OpsActionRecord> {
  const r = await run;
  if ('refused' in r) throw new Error(`refused: ${r.refused.command}`);
  return r;
}

beforeAll(async () => {
  [set, aof] = await Promise.all([startReplicaSet({ replicas: 1 }), startRedis({ args: ['--appendonly', 'yes'] })]);
  pool = poolFor({ m: set.master, aof });
  hub = new MetricsHub({ pool });
  const admin = await adminClient(set.master);
  const fill = admin.pipeline();
  for (let i = 0; i < 20_000; i++) fill.set(`key:${i}`, 'x'.repeat(50));
  await fill.exec();
});
afterAll(async () => {
  await hub.shutdown();
  await pool.shutdown();
  await closeAdmins();
  await Promise.all([set.stop(), aof.stop()]);
});

describe('MetricsHub.runAction', () => {
  it('times a BGSAVE to its end and reports status ok and the RDB file size', async () => {
    const r = await ran(hub.runAction('m', addr(set.master), 'bgsave'));
    expect(r).toMatchObject({ action: 'bgsave', address: addr(set.master), status: 'ok' });
    expect(r.seconds).toBeGreaterThan(0);
    expect(r.seconds).toBeLessThan(10);
    expect(r.sizeBytes).toBeGreaterThan(20_000 * 50 * 0.1);
  });

  it('waits for a save already in progress, then runs its own', async () => {
    const admin = await adminClient(set.master);
    const saves = async () => Number(/rdb_saves:(\d+)/.exec(await admin.info('persistence'))?.[1]);
    const before = await saves();
    const [a, b] = await Promise.all([ran(hub.runAction('m', addr(set.master), 'bgsave')), ran(hub.runAction('m', addr(set.master), 'bgsave'))]);
    expect([a.status, b.status]).toEqual(['ok', 'ok']);
    // Two saves ran, one after the other (Redis forks one child at a time), each with its fresh file.
    expect(await saves()).toBe(before + 2);
    expect([a.sizeBytes, b.sizeBytes].every((n) => (n ?? 0) > 0)).toBe(true);
  });

  it('runs on a replica by its discovered address', async () => {
    const r = await ran(hub.runAction('m', addr(set.replicas[0]!), 'bgsave'));
    expect(r).toMatchObject({ address: addr(set.replicas[0]!), status: 'ok' });
  });

  it('times BGREWRITEAOF and reports the AOF size when AOF is on', async () => {
    const admin = await adminClient(aof);
    await admin.set('a', 'b');
    const r = await ran(hub.runAction('aof', addr(aof), 'bgrewriteaof'));
    expect(r).toMatchObject({ action: 'bgrewriteaof', status: 'ok' });
    expect(r.sizeBytes).toBeGreaterThan(0);
  });

  it('omits the size when CONFIG is refused by ACL', async () => {
    const admin = await adminClient(set.master);
    await admin.call('ACL', 'SETUSER', 'saver', 'on', '>pw', '~*', '+@all', '-config');
    const acl = new Pool({ ...profileRegistry({ s: specFor(set.master, { username: 'saver', password: 'pw' }) }) });
    const aclHub = new MetricsHub({ pool: acl });
    try {
      const r = await ran(aclHub.runAction('s', addr(set.master), 'bgsave'));
      expect(r.status).toBe('ok');
      expect(r.sizeBytes).toBeUndefined();
    } finally {
      await aclHub.shutdown();
      await acl.shutdown();
    }
  });

  it('refuses an address that is not a node of the profile, without connecting to it', async () => {
    await expect(hub.runAction('m', '127.0.0.1:1', 'bgsave')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps the recent actions of a profile, newest first', () => {
    const list = hub.actions('m');
    expect(list.length).toBeGreaterThanOrEqual(4);
    expect(list.map((a) => a.startedAt)).toEqual([...list.map((a) => a.startedAt)].sort((x, y) => y - x));
    expect(hub.actions('aof')).toHaveLength(1);
  });
});
