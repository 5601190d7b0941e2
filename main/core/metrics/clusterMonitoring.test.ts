import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostPort } from '../../../app/hostPort';
import { useCluster } from '../../../testing/cluster';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { eventually } from '../../../testing/redis';
import { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';
import { record } from './metricsTestKit';

const PASSWORD = 'cluster-mon-pw';
const cluster = useCluster({ password: PASSWORD });
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

let pool: Pool;
let hub: MetricsHub;
beforeAll(() => {
  const seeds = cluster()
    .addresses.slice(0, 2)
    .map((a) => {
      const at = parseHostPort(a, 0);
      if ('error' in at) throw new Error(at.error);
      return at;
    });
  const spec = specFor(seeds[0]!, { name: 'cluster', password: PASSWORD, topology: { kind: 'cluster', seeds } });
  pool = new Pool(profileRegistry({ c: spec }));
  hub = new MetricsHub({ pool, alertQuietMs: 60_000 });
});
afterAll(async () => {
  await hub.shutdown();
  await pool.shutdown();
});

async function onNode(port: number, ...args: string[]): Promise<unknown> {
  const r = new Redis({ port, password: PASSWORD, lazyConnect: true, retryStrategy: () => null });
  try {
    await r.connect();
    return await r.call(args[0]!, ...args.slice(1));
  } finally {
    r.disconnect();
  }
}

describe('monitoring a cluster profile', () => {
  it('discovers all 6 nodes from CLUSTER NODES: masters with their slots, each replica under its master', async () => {
    const w = record(hub, 'c');
    try {
      await w.until(
        'a topology of 6 nodes with cluster facts',
        () => {
          const t = w.ofKind('topology').at(-1);
          return t?.nodes.length === 6 && t.cluster !== undefined;
        },
        10_000,
      );
      const t = w.ofKind('topology').at(-1)!;
      expect(t.mode).toBe('cluster');
      expect(t.cluster).toMatchObject({ state: 'ok', slotsAssigned: 16384, slotsOk: 16384, slotsFail: 0, knownNodes: 6, size: 3 });
      const masters = t.nodes.filter((n) => n.role === 'master');
      expect(masters.map((n) => n.address).sort()).toEqual(cluster().masters.map(addr).sort());
      const served = masters.flatMap((m) => m.slots ?? []).reduce((sum, [a, b]) => sum + b - a + 1, 0);
      expect(served).toBe(16384);
      // Shard order: each master directly followed by its replica.
      for (const [i, n] of t.nodes.entries()) {
        if (n.role === 'replica') expect(t.nodes[i - 1]?.address).toBe(n.master);
      }
      await w.ticks(1);
      expect(
        w
          .ofKind('samples')
          .at(-1)
          ?.samples.every((s) => s.up),
      ).toBe(true);
    } finally {
      w.stop();
    }
  });

  it('a CLUSTER FAILOVER during monitoring is a failover event both ways, and polling carries on with every node up', async () => {
    const w = record(hub, 'c');
    try {
      await w.until(
        '6 nodes polled',
        () =>
          (w
            .ofKind('samples')
            .at(-1)
            ?.samples.filter((s) => s.up).length ?? 0) === 6,
        10_000,
      );
      const t = w.ofKind('topology').at(-1)!;
      const replica = t.nodes.find((n) => n.role === 'replica')!;
      const oldMaster = replica.master!;
      const port = Number(replica.address.split(':').at(-1));
      expect(await onNode(port, 'CLUSTER', 'FAILOVER')).toBe('OK');
      await w.until(
        'both role changes as failover events',
        () => {
          const f = w.ofKind('failover').map((e) => e.failover);
          return (
            f.some((e) => e.address === replica.address && e.oldRole === 'replica' && e.newRole === 'master') &&
            f.some((e) => e.address === oldMaster && e.oldRole === 'master' && e.newRole === 'replica')
          );
        },
        15_000,
      );
      expect(w.alerts().some((a) => a.kind === 'failover' && a.address === replica.address)).toBe(true);
      await w.until(
        'the topology with the roles swapped',
        () => {
          const now = w.ofKind('topology').at(-1)?.nodes ?? [];
          const promoted = now.find((n) => n.address === replica.address);
          const demoted = now.find((n) => n.address === oldMaster);
          return promoted?.role === 'master' && (promoted.slots?.length ?? 0) > 0 && demoted?.role === 'replica' && demoted.master === replica.address;
        },
        15_000,
      );
      await w.ticks(3);
      const last = w.ofKind('samples').at(-1)!.samples;
      expect(last).toHaveLength(6);
      expect(last.every((s) => s.up)).toBe(true);
      expect(w.ofKind('topology').at(-1)?.cluster?.state).toBe('ok');
      const unreachable = w.alerts().filter((a) => a.kind === 'node_unreachable' && a.resolvedAt === undefined);
      expect(unreachable).toEqual([]);
      // A late watcher gets the failovers after the history.
      const late = record(hub, 'c');
      expect(late.ofKind('failover').length).toBe(w.ofKind('failover').length);
      late.stop();
    } finally {
      w.stop();
    }
  }, 40_000);

  it('SLOWLOG without an address reads a master; an address outside the cluster is refused', async () => {
    const got = await hub.slowlog('c', undefined, 8);
    expect(Array.isArray(got.slowlog)).toBe(true);
    await expect(hub.slowlog('c', '127.0.0.1:1', 8)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await eventually(async () => (await hub.nodes('c')).length === 6, 5_000)).toBe(true);
  });
});
