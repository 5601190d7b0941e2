import { describe, expect, it } from 'vitest';
import { adminClient, startRedis } from '../../../testing/redis';
import { replicaArgs } from '../../../testing/replication';
import { spawnRedisServer } from '../redisProcess/spawnRedisServer';
import { record, useHubOnReplicaSet } from './metricsTestKit';

const INTERVAL = 250;
const fx = useHubOnReplicaSet({ replicas: 2, args: ['--enable-debug-command', 'yes'] });
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

describe('a replica that dies and comes back', () => {
  it('is unreachable within two intervals, leaves a "down" gap in its history, and comes back "restarted" on the same port', async () => {
    const w = record(fx.hub, 'm', { intervalMs: INTERVAL });
    await w.until(
      '3 nodes up',
      () =>
        w
          .ofKind('samples')
          .at(-1)
          ?.samples.filter((s) => s.up).length === 3,
    );
    await w.ticks(2);
    const victim = fx.set.replicas[0]!;
    const address = addr(victim);
    const killedAt = Date.now();
    victim.kill('SIGKILL');

    await w.until('node_unreachable', () => w.alerts().some((a) => a.kind === 'node_unreachable' && a.address === address));
    const down = w.alerts().find((a) => a.kind === 'node_unreachable' && a.address === address)!;
    expect(down.severity).toBe('critical');
    expect(down.since - killedAt).toBeLessThanOrEqual(2 * INTERVAL + 100);
    // Connection refused: unreachable, never "slow".
    expect(w.latest(address)).toMatchObject({ up: false, status: 'unreachable' });
    expect(w.alerts().some((a) => a.kind === 'node_slow')).toBe(false);
    // The master dropped it from its replica list: that is a lost replica too.
    await w.until('replica_link_down', () => w.alerts().some((a) => a.kind === 'replica_link_down' && a.address === address));
    // Still listed, as down, although no live node names it any more.
    await w.until(
      'topology with the node down',
      () =>
        w
          .ofKind('topology')
          .at(-1)
          ?.nodes.some((n) => n.address === address && !n.up && n.role === 'replica') === true,
    );
    await w.ticks(2);

    const history = record(fx.hub, 'm', { intervalMs: INTERVAL });
    const h = history.ofKind('history')[0]?.nodes.find((n) => n.address === address);
    history.stop();
    const afterKill = (h?.at ?? []).map((at, i) => ({ at, ops: h?.opsPerSec[i], mem: h?.usedMemory[i] })).filter((p) => p.at > killedAt);
    expect(afterKill.length).toBeGreaterThanOrEqual(2);
    expect(afterKill.every((p) => p.ops === null && p.mem === null)).toBe(true);
    const causes = new Set((h?.gaps ?? []).filter((g, i) => (h?.at[i] ?? 0) > killedAt && g !== null));
    expect([...causes]).toEqual(['down']);
    expect(h?.opsPerSec.some((v) => v !== null && v > 0)).toBe(true); // before the kill

    const back = await spawnRedisServer({ port: victim.port, args: replicaArgs(fx.set.master) });
    fx.set.replicas[0] = back;
    await w.until('node_unreachable resolved', () => w.alerts().some((a) => a.id === down.id && a.resolvedAt !== undefined), 10_000);
    await w.until(
      'replica_link_down resolved',
      () => w.alerts().some((a) => a.kind === 'replica_link_down' && a.address === address && a.resolvedAt !== undefined),
      10_000,
    );
    expect(w.latest(address)).toMatchObject({ up: true, replication: { masterLinkStatus: 'up' } });
    // A new run_id: the first answer says restarted, once; an alert says so; the history marks it.
    const samples = w
      .ofKind('samples')
      .flatMap((e) => e.samples)
      .filter((s) => s.address === address);
    expect(samples.filter((s) => s.restarted === true)).toHaveLength(1);
    const restart = w.alerts().find((a) => a.kind === 'node_restarted' && a.address === address);
    expect(restart?.severity).toBe('warning');
    expect(restart?.message).toMatch(/restarted/);
    const again = record(fx.hub, 'm', { intervalMs: INTERVAL });
    const h2 = again.ofKind('history')[0]?.nodes.find((n) => n.address === address);
    again.stop();
    expect(h2?.restarts).toHaveLength(1);
    expect(h2?.restarts?.[0]).toBe(samples.find((s) => s.restarted === true)?.at);
    w.stop();
  });
});

describe('a replica paused by DEBUG SLEEP while the master takes writes', () => {
  it('is reported slow, never unreachable (its poll times out, its connection stays open), and behind its master, and recovers', async () => {
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
    // At a 250 ms interval INFO to the sleeping replica gets no answer within the 500 ms poll
    // timeout while its connection stays open: slow, not down. Its master's acknowledged offset
    // stops while writes go on, so it lags.
    expect(kinds.has('node_slow')).toBe(true);
    expect(kinds.has('node_unreachable')).toBe(false);
    expect(during.find((a) => a.kind === 'node_slow')?.severity).toBe('warning');
    expect(during.find((a) => a.kind === 'node_slow')?.message).toMatch(/no answer/);
    expect(kinds.has('replication_lag')).toBe(true);
    await w.until(
      'all resolved',
      () => [...kinds].every((k) => w.alerts().some((a) => a.kind === k && a.address === address && a.resolvedAt !== undefined)),
      5_000,
    );
    const statuses = new Set(
      w
        .ofKind('samples')
        .flatMap((e) => e.samples)
        .filter((s) => s.address === address && s.at >= startedAt)
        .map((s) => s.status),
    );
    expect([...statuses].sort()).toEqual(['slow', 'up']);
    // Neither the topology nor the history calls it down.
    expect(w.ofKind('topology').some((t) => t.at >= startedAt && t.nodes.some((n) => n.address === address && !n.up))).toBe(false);
    const history = record(fx.hub, 'm', { intervalMs: INTERVAL });
    const h = history.ofKind('history')[0]?.nodes.find((n) => n.address === address);
    history.stop();
    const gaps = new Set((h?.gaps ?? []).filter((g, i) => (h?.at[i] ?? 0) >= startedAt && g !== null));
    expect([...gaps]).toEqual(['slow']);
    expect(h?.restarts).toBeUndefined();
    w.stop();
  });
});

describe('a replica added while watching', () => {
  it('shows up in the topology and the samples without a new watcher', async () => {
    const w = record(fx.hub, 'm', { intervalMs: INTERVAL });
    await w.until('topology', () => w.ofKind('topology').length > 0);
    const extra = await startRedis({ args: replicaArgs(fx.set.master) });
    try {
      await w.until(
        'the new replica in the topology',
        () =>
          w
            .ofKind('topology')
            .at(-1)
            ?.nodes.some((n) => n.address === addr(extra) && n.master === addr(fx.set.master)) === true,
      );
      await w.until('a sample of it', () => w.latest(addr(extra))?.up === true);
    } finally {
      w.stop();
      await extra.stop();
    }
  });
});

describe('a master paused by CLIENT PAUSE ALL', () => {
  it('is slow while paused, then up, the same run: no unreachable, no restart', async () => {
    const w = record(fx.hub, 'm', { intervalMs: INTERVAL });
    const address = addr(fx.set.master);
    await w.until('master up', () => w.latest(address)?.up === true);
    const admin = await adminClient(fx.set.master);
    const pausedAt = Date.now();
    await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
    await w.until('slow', () => w.latest(address)?.status === 'slow', 5_000);
    await w.until('node_slow', () => w.alerts().some((a) => a.kind === 'node_slow' && a.address === address));
    await w.until('up again', () => w.latest(address)?.up === true, 5_000);
    await w.until('node_slow resolved', () => w.alerts().some((a) => a.kind === 'node_slow' && a.address === address && a.resolvedAt !== undefined));
    const since = w.alerts().filter((a) => a.since >= pausedAt && a.address === address);
    expect(since.some((a) => a.kind === 'node_unreachable' || a.kind === 'node_restarted')).toBe(false);
    const mine = w
      .ofKind('samples')
      .flatMap((e) => e.samples)
      .filter((s) => s.address === address && s.at >= pausedAt);
    expect(mine.some((s) => s.status === 'unreachable' || s.restarted === true)).toBe(false);
    w.stop();
  });
});
