import { Cluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startCluster } from './cluster';

describe('startCluster', () => {
  it('forms a 6-node cluster (3 masters, 3 in-sync replicas) in under 8 s that serves keys on every shard, and stop() ends it', async () => {
    const t0 = Date.now();
    const cluster = await startCluster();
    const took = Date.now() - t0;
    try {
      expect(took).toBeLessThan(8_000);
      expect(cluster.masters).toHaveLength(3);
      expect(cluster.replicas).toHaveLength(3);
      const client = new Cluster([{ host: '127.0.0.1', port: cluster.masters[0]!.port }], { lazyConnect: true });
      await client.connect();
      try {
        // 100 keys land on all three masters (16384 slots, split three ways).
        await Promise.all(Array.from({ length: 100 }, (_, i) => client.set(`k${i}`, String(i))));
        const sizes = await Promise.all(client.nodes('master').map((n) => n.dbsize()));
        expect(sizes).toHaveLength(3);
        expect(sizes.every((n) => n > 0)).toBe(true);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(100);
      } finally {
        client.disconnect();
      }
    } finally {
      await cluster.stop();
    }
    expect(cluster.nodes.every((n) => n.exited())).toBe(true);
  });
});
