import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import type { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';
import { poolFor } from './testPool';

let set: ReplicaSet;
let pool: Pool;
let hub: MetricsHub;
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 1, args: ['--enable-debug-command', 'yes'] });
  pool = poolFor({ m: set.master });
  hub = new MetricsHub({ pool });
});
afterAll(async () => {
  await hub.shutdown();
  await pool.shutdown();
  await closeAdmins();
  await set.stop();
});

describe('MetricsHub.slowlog', () => {
  it('returns slow commands with binary arguments escaped, and the latency events', async () => {
    const admin = await adminClient(set.master);
    await admin.config('SET', 'slowlog-log-slower-than', '0');
    await admin.config('SET', 'latency-monitor-threshold', '10');
    await admin.client('SETNAME', 'loader-7');
    await admin.set(Buffer.from([0xff, 0x00, 0x61]), 'héllo\n');
    await admin.call('DEBUG', 'SLEEP', '0.02');
    const { slowlog, latency } = await hub.slowlog('m', undefined, 10);
    const setEntry = slowlog.find((e) => e.args[0]?.toLowerCase() === 'set');
    expect(setEntry).toMatchObject({ args: ['set', '\\xff\\x00a', 'héllo\\x0a'], clientName: 'loader-7' });
    expect(setEntry?.client).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(setEntry?.at).toBeGreaterThan(Date.now() - 60_000);
    expect(slowlog.length).toBeLessThanOrEqual(10);
    expect(latency).toContainEqual({ event: 'command', at: expect.any(Number), latestMs: expect.any(Number), maxMs: expect.any(Number) });
    expect(latency.find((l) => l.event === 'command')?.maxMs).toBeGreaterThanOrEqual(10);
  });

  it('reads a replica by its discovered address', async () => {
    const r = await hub.slowlog('m', addr(set.replicas[0]!), 5);
    expect(Array.isArray(r.slowlog)).toBe(true);
  });

  it('refuses an address outside the replication tree', async () => {
    await expect(hub.slowlog('m', '127.0.0.1:1', 5)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
