import { describe, expect, it } from 'vitest';
import { adminClient } from '../../../testing/redis';
import { useHubOnReplicaSet } from './metricsTestKit';

const fx = useHubOnReplicaSet({ replicas: 1, args: ['--enable-debug-command', 'yes'] });
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

describe('MetricsHub.slowlog', () => {
  it('returns slow commands with binary arguments escaped, and the latency events', async () => {
    const admin = await adminClient(fx.set.master);
    await admin.config('SET', 'slowlog-log-slower-than', '0');
    await admin.config('SET', 'latency-monitor-threshold', '10');
    await admin.client('SETNAME', 'loader-7');
    await admin.set(Buffer.from([0xff, 0x00, 0x61]), 'héllo\n');
    await admin.call('DEBUG', 'SLEEP', '0.02');
    const { slowlog, latency } = await fx.hub.slowlog('m', undefined, 10);
    const setEntry = slowlog.find((e) => e.args[0]?.toLowerCase() === 'set');
    expect(setEntry).toMatchObject({ args: ['set', '\\xff\\x00a', 'héllo\\n'], clientName: 'loader-7' });
    expect(setEntry?.client).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(setEntry?.at).toBeGreaterThan(Date.now() - 60_000);
    expect(slowlog.length).toBeLessThanOrEqual(10);
    expect(latency).toContainEqual({ event: 'command', at: expect.any(Number), latestMs: expect.any(Number), maxMs: expect.any(Number) });
    expect(latency.find((l) => l.event === 'command')?.maxMs).toBeGreaterThanOrEqual(10);
  });

  it('has the COMMANDLOG logs exactly where COMMAND INFO names the command (not on Redis 7.0)', async () => {
    const admin = await adminClient(fx.set.master);
    const info = await admin.call('COMMAND', 'INFO', 'commandlog');
    const has = Array.isArray(info) && Array.isArray(info[0]);
    const r = await fx.hub.slowlog('m', undefined, 5);
    expect(r.commandlog !== undefined).toBe(has);
    if (has) expect(r.commandlog?.largeReply.length).toBeGreaterThanOrEqual(0);
  });

  it('reads a replica by its discovered address', async () => {
    const r = await fx.hub.slowlog('m', addr(fx.set.replicas[0]!), 5);
    expect(Array.isArray(r.slowlog)).toBe(true);
  });

  it('refuses an address outside the replication tree', async () => {
    await expect(fx.hub.slowlog('m', '127.0.0.1:1', 5)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
