import { describe, expect, it } from 'vitest';
import type { NodeSample } from '../../../app/schemas/metrics';
import { DEFAULT_THRESHOLDS } from './alertRules';
import { AlertEngine } from './alerts';
import type { TopologyEntry } from './types';

const M = '10.0.0.1:6379';
const R = '10.0.0.2:6379';

interface Over {
  rejected?: number;
  evictionsPerSec?: number;
  usedPct?: number;
  bgsave?: string;
  link?: string;
  replicas?: { address: string; lagBytes: number; lagSeconds: number }[];
}

function node(address: string, at: number, role: 'master' | 'replica', o: Over = {}): NodeSample {
  const maxmemory = o.usedPct === undefined ? 0 : 1000;
  return {
    address,
    at,
    up: true,
    role,
    traffic: { opsPerSec: 1, inputKbps: 0, outputKbps: 0, hitRatio: null, evictionsPerSec: o.evictionsPerSec ?? 0, expirationsPerSec: 0 },
    memory: { used: (o.usedPct ?? 0) * 10, peak: 0, rss: 0, fragmentation: 1, maxmemory, percentOfMax: o.usedPct ?? null },
    clients: { connected: 1, blocked: 0, rejected: o.rejected ?? 0 },
    persistence: {
      rdbBgsaveInProgress: false,
      rdbLastBgsaveStatus: o.bgsave ?? 'ok',
      rdbLastBgsaveSeconds: 0,
      rdbChangesSinceLastSave: 0,
      rdbLastSaveTime: 0,
      aofEnabled: false,
      aofRewriteInProgress: false,
      aofLastRewriteStatus: 'ok',
      latestForkUsec: 0,
    },
    replication:
      role === 'master'
        ? {
            role,
            masterReplOffset: 100,
            replicas: (o.replicas ?? [{ address: R, lagBytes: 0, lagSeconds: 0 }]).map((r) => ({ ...r, state: 'online', offset: 100 - r.lagBytes })),
          }
        : { role, masterAddress: M, masterLinkStatus: o.link ?? 'up', masterReplOffset: 100, replicaOffset: 100, replicas: [] },
  };
}

function down(address: string, at: number): NodeSample {
  return { address, at, up: false, error: 'connection refused' };
}

const topology: TopologyEntry[] = [
  { address: M, role: 'master', up: true },
  { address: R, role: 'replica', master: M, up: true },
];

function engine(over: Partial<typeof DEFAULT_THRESHOLDS> = {}, quietMs = 60_000): AlertEngine {
  return new AlertEngine({ thresholds: { ...DEFAULT_THRESHOLDS, ...over }, quietMs });
}

describe('AlertEngine', () => {
  it('tells a slow node (warning) from an unreachable one (critical), and a restart (warning, resolved after the quiet time)', () => {
    const e = engine({}, 1000);
    e.evaluate(1, [node(M, 1, 'master'), node(R, 1, 'replica')], topology);
    const slow = e.evaluate(2, [node(M, 2, 'master'), { ...down(R, 2), status: 'slow', error: 'no answer within 1000 ms to INFO ALL' }], topology);
    expect(slow.map((a) => [a.kind, a.severity])).toEqual([['node_slow', 'warning']]);
    const lost = e.evaluate(3, [node(M, 3, 'master'), { ...down(R, 3), status: 'unreachable' }], topology);
    // Slow, then refused: the slow alert resolves as the unreachable one is raised.
    expect(lost.map((a) => [a.kind, a.resolvedAt === undefined])).toEqual([
      ['node_unreachable', true],
      ['node_slow', false],
    ]);
    const back = e.evaluate(4, [node(M, 4, 'master'), { ...node(R, 4, 'replica'), restarted: true, uptimeSeconds: 1 }], topology);
    expect(back.map((a) => [a.kind, a.resolvedAt === undefined])).toEqual([
      ['node_restarted', true],
      ['node_unreachable', false],
    ]);
    expect(back[0]).toMatchObject({ severity: 'warning', message: `${R} restarted 1 s ago (a new run_id): its data and counters start afresh` });
    expect(e.evaluate(5, [node(M, 5, 'master'), node(R, 5, 'replica')], topology)).toEqual([]);
    expect(e.evaluate(1005, [node(M, 1005, 'master'), node(R, 1005, 'replica')], topology).map((a) => [a.kind, a.resolvedAt])).toEqual([
      ['node_restarted', 1005],
    ]);
  });

  it('raises node_unreachable on the first failed poll, keeps its id while active, resolves when the node answers', () => {
    const e = engine();
    expect(e.evaluate(1, [node(M, 1, 'master'), node(R, 1, 'replica')], topology)).toEqual([]);
    const [raised] = e.evaluate(2, [node(M, 2, 'master', { replicas: [] }), down(R, 2)], topology).filter((a) => a.kind === 'node_unreachable');
    expect(raised).toMatchObject({ kind: 'node_unreachable', severity: 'critical', address: R, since: 2 });
    expect(raised?.resolvedAt).toBeUndefined();
    e.evaluate(3, [node(M, 3, 'master', { replicas: [] }), down(R, 3)], topology);
    expect(e.active().find((a) => a.kind === 'node_unreachable')?.id).toBe(raised?.id);
    const changes = e.evaluate(4, [node(M, 4, 'master'), node(R, 4, 'replica')], topology);
    expect(changes).toContainEqual({ ...raised, resolvedAt: 4 });
    expect(e.active()).toEqual([]);
    expect(e.resolved()[0]?.id).toBeDefined();
    // A new outage is a new alert.
    const again = e.evaluate(5, [node(M, 5, 'master'), down(R, 5)], topology).find((a) => a.kind === 'node_unreachable');
    expect(again?.id).not.toBe(raised?.id);
  });

  it('raises replica_link_down for a master that stopped listing a replica it had', () => {
    const e = engine();
    e.evaluate(1, [node(M, 1, 'master'), node(R, 1, 'replica')], topology);
    const changes = e.evaluate(2, [node(M, 2, 'master', { replicas: [] }), down(R, 2)], topology);
    expect(changes.map((a) => `${a.kind}@${a.address}`).sort()).toEqual([`node_unreachable@${R}`, `replica_link_down@${R}`]);
    expect(changes.find((a) => a.kind === 'replica_link_down')?.message).toContain('no longer lists');
  });

  it("raises replica_link_down from the replica's own master_link_status", () => {
    const e = engine();
    const [a] = e.evaluate(1, [node(M, 1, 'master'), node(R, 1, 'replica', { link: 'down' })], topology);
    expect(a).toMatchObject({ kind: 'replica_link_down', address: R, severity: 'critical' });
    expect(e.evaluate(2, [node(M, 2, 'master'), node(R, 2, 'replica')], topology)).toEqual([{ ...a, resolvedAt: 2 }]);
  });

  it('raises replication_lag above either threshold, a warning', () => {
    const e = engine({ lagBytes: 1000, lagSeconds: 5 });
    const bytes = e.evaluate(1, [node(M, 1, 'master', { replicas: [{ address: R, lagBytes: 1001, lagSeconds: 0 }] })], topology);
    expect(bytes).toEqual([expect.objectContaining({ kind: 'replication_lag', severity: 'warning', address: R })]);
    expect(e.evaluate(2, [node(M, 2, 'master', { replicas: [{ address: R, lagBytes: 10, lagSeconds: 6 }] })], topology)).toEqual([]);
    expect(e.evaluate(3, [node(M, 3, 'master')], topology)).toEqual([expect.objectContaining({ kind: 'replication_lag', resolvedAt: 3 })]);
  });

  it('raises memory_high at 90% of maxmemory and never without a maxmemory', () => {
    const e = engine();
    expect(e.evaluate(1, [node(M, 1, 'master', { usedPct: 89.9 })], topology)).toEqual([]);
    expect(e.evaluate(2, [node(M, 2, 'master', { usedPct: 90 })], topology)).toEqual([
      expect.objectContaining({ kind: 'memory_high', severity: 'warning', address: M }),
    ]);
    expect(e.evaluate(3, [node(M, 3, 'master')], topology)).toEqual([expect.objectContaining({ kind: 'memory_high', resolvedAt: 3 })]);
  });

  it('raises bgsave_failed while rdb_last_bgsave_status is not ok', () => {
    const e = engine();
    expect(e.evaluate(1, [node(M, 1, 'master', { bgsave: 'err' })], topology)).toEqual([
      expect.objectContaining({ kind: 'bgsave_failed', severity: 'critical' }),
    ]);
    expect(e.evaluate(2, [node(M, 2, 'master')], topology)).toEqual([expect.objectContaining({ kind: 'bgsave_failed', resolvedAt: 2 })]);
  });

  it('raises rejected_connections when the counter grows and resolves after a quiet period', () => {
    const e = engine({}, 100);
    e.evaluate(1, [node(M, 1, 'master', { rejected: 5 })], topology);
    expect(e.evaluate(2, [node(M, 2, 'master', { rejected: 7 })], topology)).toEqual([
      expect.objectContaining({ kind: 'rejected_connections', message: expect.stringContaining('2 connection') }),
    ]);
    expect(e.evaluate(50, [node(M, 50, 'master', { rejected: 7 })], topology)).toEqual([]);
    expect(e.evaluate(150, [node(M, 150, 'master', { rejected: 7 })], topology)).toEqual([
      expect.objectContaining({ kind: 'rejected_connections', resolvedAt: 150 }),
    ]);
  });

  it('raises evictions when keys start being evicted', () => {
    const e = engine({}, 0);
    expect(e.evaluate(1, [node(M, 1, 'master', { evictionsPerSec: 12 })], topology)).toEqual([
      expect.objectContaining({ kind: 'evictions', severity: 'warning' }),
    ]);
    expect(e.evaluate(2, [node(M, 2, 'master')], topology)).toEqual([expect.objectContaining({ kind: 'evictions', resolvedAt: 2 })]);
  });

  it("keeps a down node's other alerts as they were: no data is no news", () => {
    const e = engine();
    e.evaluate(1, [node(M, 1, 'master', { usedPct: 95 })], topology);
    e.evaluate(2, [down(M, 2)], topology);
    expect(
      e
        .active()
        .map((a) => a.kind)
        .sort(),
    ).toEqual(['memory_high', 'node_unreachable']);
  });

  it('keeps at most 100 resolved alerts', () => {
    const e = engine();
    for (let t = 0; t < 300; t += 2) {
      e.evaluate(t, [down(M, t)], topology);
      e.evaluate(t + 1, [node(M, t + 1, 'master')], topology);
    }
    expect(e.resolved()).toHaveLength(100);
    expect(e.resolved()[0]?.resolvedAt).toBe(299);
  });
});
