import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../app/errors';
import { useCluster } from '../../../testing/cluster';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { eventually } from '../../../testing/redis';
import { slotOf } from '../resp/slot';
import { Pool } from '../pool/pool';
import type { ProfileSpec } from '../pool/types';
import { pageNodes } from '../pool/profileNodes';
import { MonitorHub, type LinesBatch, type Viewer } from './monitorHub';
import { monitorTargets } from './monitorTargets';

const cluster = useCluster();
let spec: ProfileSpec;
let pool: Pool;
let hub: MonitorHub;
let writer: Cluster;
// MetricsHub's discovery serves replication trees; a cluster's nodes come from CLUSTER NODES.
const notForCluster = () => Promise.reject(new AppError('INTERNAL', 'not for a cluster'));
const metrics = { nodeOf: notForCluster, nodes: notForCluster };

beforeAll(async () => {
  const [host = '127.0.0.1', port] = (cluster().addresses[0] ?? '').split(':');
  const seed = { host, port: Number(port) };
  spec = specFor(seed, { name: 'shards', topology: { kind: 'cluster', seeds: [seed] } });
  pool = new Pool(profileRegistry({ c: spec }));
  hub = new MonitorHub({ resolve: monitorTargets({ profile: (id) => (id === 'c' ? { id, source: 'config', spec } : undefined), metrics, pool }) });
  writer = new Cluster([seed], { lazyConnect: true });
  await writer.connect();
});
afterAll(async () => {
  hub.shutdown();
  writer.disconnect();
  await pool.shutdown();
});

function pane(): { viewer: Viewer; lines: () => LinesBatch['lines']; states: string[] } {
  const batches: LinesBatch[] = [];
  const states: string[] = [];
  return {
    lines: () => batches.flatMap((b) => b.lines),
    states,
    viewer: {
      lines: (b) => batches.push(b),
      stats: () => undefined,
      state: (s) => states.push(s),
      gap: () => undefined,
      end: () => undefined,
      congested: () => false,
    },
  };
}

describe('MONITOR on a Redis Cluster', () => {
  it('lists every node, each master followed by its replicas', async () => {
    const nodes = await pageNodes(pool, metrics, 'listed').nodes('c');
    expect(nodes).toHaveLength(6);
    expect(nodes.filter((n) => n.role === 'master')).toHaveLength(3);
    nodes.forEach((n, i) => {
      if (n.role === 'replica') expect(nodes.slice(0, i).findLast((m) => m.role === 'master')?.address).toBe(n.master);
    });
  });

  it("watches two nodes at once: a write shows on the master owning its slot and on that master's replica, not elsewhere", async () => {
    const key = 'mon:{here}';
    const owner = (await pool.masters('c')).find((m) => (m.slots ?? []).some(([a, b]) => slotOf(key) >= a && slotOf(key) <= b));
    const replica = (await pageNodes(pool, metrics, 'listed').nodes('c')).find((n) => n.master === owner?.address);
    expect(owner).toBeDefined();
    expect(replica).toBeDefined();
    // A key another shard owns: it must show in neither pane.
    let elsewhere = 'mon:{x0}';
    for (let i = 1; (owner?.slots ?? []).some(([a, b]) => slotOf(elsewhere) >= a && slotOf(elsewhere) <= b); i++) elsewhere = `mon:{x${i}}`;

    const onMaster = pane();
    const onReplica = pane();
    const all = { sampleEvery: 1, hideOwn: true };
    const stops = [await hub.watch('c', owner?.address, all, onMaster.viewer), await hub.watch('c', replica?.address, all, onReplica.viewer)];
    try {
      expect(await eventually(() => onMaster.states.includes('live') && onReplica.states.includes('live'))).toBe(true);
      await writer.set(elsewhere, 'no');
      await writer.set(key, 'yes');
      const wrote = (p: ReturnType<typeof pane>, k: string) => p.lines().some((l) => l.command === 'SET' && l.args[0] === k);
      expect(await eventually(() => wrote(onMaster, key) && wrote(onReplica, key))).toBe(true);
      expect(wrote(onMaster, elsewhere) || wrote(onReplica, elsewhere)).toBe(false);
    } finally {
      stops.forEach((stop) => stop());
    }
  });

  it('refuses an address that is not a node of the cluster', async () => {
    await expect(hub.watch('c', '127.0.0.1:1', { sampleEvery: 1, hideOwn: true }, pane().viewer)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
