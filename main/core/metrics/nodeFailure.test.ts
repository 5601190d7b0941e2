import { describe, expect, it } from 'vitest';
import { adminClient, startRedis } from '../../../testing/redis';
import { replicaArgs } from '../../../testing/replication';
import { spawnRedisServer } from '../redisProcess/spawnRedisServer';
import { record, useHubOnReplicaSet } from './metricsTestKit';

const INTERVAL = 250;
const fx = useHubOnReplicaSet({ replicas: 2, args: ['--enable-debug-command', 'yes'] });
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

describe('a replica that dies and comes back', () => {
  it('is marked down within two intervals, leaves a gap in its history, and its alert resolves after a restart on the same port', async () => {
    const w = record(fx.hub, 'm', { intervalMs: INTERVAL });
    await w.until('3 nodes up', () => w.ofKind('samples').at(-1)?.samples.filter((s) => s.up).length === 3);
    await w.ticks(2);
    const victim = fx.set.replicas[0]!;
    const address = addr(victim);
    const killedAt = Date.now();
    victim.kill('SIGKILL');

    await w.until('node_unreachable', () => w.alerts().some((a) => a.kind === 'node_unreachable' && a.address === address));
    const down = w.alerts().find((a) => a.kind === 'node_unreachable' && a.address === address)!;
    expect(down.severity).toBe('critical');
    expect(down.since - killedAt).toBeLessThanOrEqual(2 * INTERVAL + 100);
    // The master dropped it from its replica list: that is a lost replica too.
    await w.until('replica_link_down', () => w.alerts().some((a) => a.kind === 'replica_link_down' && a.address === address));
    // Still listed, as down, although no live node names it any more.
    await w.until('topology with the node down', () =>
      w.ofKind('topology').at(-1)?.nodes.some((n) => n.address === address && !n.up && n.role === 'replica') === true,
    );
    await w.ticks(2);

    const history = record(fx.hub, 'm', { intervalMs: INTERVAL });
    const h = history.ofKind('history')[0]?.nodes.find((n) => n.address === address);
    history.stop();
    const afterKill = (h?.at ?? []).map((at, i) => ({ at, ops: h?.opsPerSec[i], mem: h?.usedMemory[i] })).filter((p) => p.at > killedAt);
    expect(afterKill.length).toBeGreaterThanOrEqual(2);
    expect(afterKill.every((p) => p.ops === null && p.mem === null)).toBe(true);
    expect(h?.opsPerSec.some((v) => v !== null && v > 0)).toBe(true); // before the kill

    const back = await spawnRedisServer({ port: victim.port, args: replicaArgs(fx.set.master) });
    fx.set.replicas[0] = back;
    await w.until('node_unreachable resolved', () => w.alerts().some((a) => a.id === down.id && a.resolvedAt !== undefined), 10_000);
    await w.until('replica_link_down resolved', () =>
      w.alerts().some((a) => a.kind === 'replica_link_down' && a.address === address && a.resolvedAt !== undefined),
      10_000,
    );
    expect(w.latest(address)).toMatchObject({ up: true, replication: { masterLinkStatus: 'up' } });
    w.stop();
  });
});

describe('a replica paused by DEBUG SLEEP while the master takes writes', () => {
  it('is reported unreachable (its poll times out) and behind its master, and recovers', async () => {
    const w = record(fx.hub, 'm', { intervalMs: INTERVAL, lagBytesThreshold: 64 });
    const sleeper = fx.set.replicas[1]!;
    const address = addr(sleeper);
    await w.until('node up', () => w.latest(address)?.up === true);
    await w.ticks(2);
    const writer = await adminClient(fx.set.master);
    const side = await adminClient(sleeper);
    const startedAt = Date.now();
    const sleeping = side.call('DEBUG', 'SLEEP', '2').catch(() => undefined);
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing; i++) {
        await writer.set(`w${i % 100}`, 'x'.repeat(100));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await sleeping;
    writing = false;
    await writes;
    const during = w.alerts().filter((a) => a.address === address && a.since >= startedAt);
    const kinds = new Set(during.map((a) => a.kind));
    // What really happens at a 250 ms interval: INFO to the sleeping replica gets no answer within the
    // 500 ms poll timeout, so it is down; its master's acknowledged offset stops while writes go on, so it lags.
    expect(kinds.has('node_unreachable')).toBe(true);
    expect(during.find((a) => a.kind === 'node_unreachable')?.message).toMatch(/no answer/);
    expect(kinds.has('replication_lag')).toBe(true);
    await w.until('all resolved', () =>
      [...kinds].every((k) => w.alerts().some((a) => a.kind === k && a.address === address && a.resolvedAt !== undefined)),
      5_000,
    );
    w.stop();
  });
});

describe('a replica added while watching', () => {
  it('shows up in the topology and the samples without a new watcher', async () => {
    const w = record(fx.hub, 'm', { intervalMs: INTERVAL });
    await w.until('topology', () => w.ofKind('topology').length > 0);
    const extra = await startRedis({ args: replicaArgs(fx.set.master) });
    try {
      await w.until('the new replica in the topology', () =>
        w.ofKind('topology').at(-1)?.nodes.some((n) => n.address === addr(extra) && n.master === addr(fx.set.master)) === true,
      );
      await w.until('a sample of it', () => w.latest(addr(extra))?.up === true);
    } finally {
      w.stop();
      await extra.stop();
    }
  });
});
