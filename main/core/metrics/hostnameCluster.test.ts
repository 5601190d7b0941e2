import { describe, expect, it } from 'vitest';
import { ANNOUNCED, useHostnameCluster } from '../../../testing/hostnameCluster';
import { snapshotProfile } from './infoReport';

const fx = useHostnameCluster();

describe('a TLS cluster whose nodes announce a hostname', () => {
  it('announces the hostname (the premise), and the Overview counts its 3 primaries, each serving slots', async () => {
    const { pool, cluster } = fx();
    const c = await pool.cluster('h');
    const slots = (await c.call('CLUSTER', 'SLOTS')) as unknown[][];
    expect(slots.map((s) => (s[2] as unknown[])[0])).toEqual([ANNOUNCED, ANNOUNCED, ANNOUNCED]);

    const snap = await snapshotProfile(pool, 'h');
    expect(snap.mode).toBe('cluster');
    const primaries = snap.samples.filter((s) => s.up && s.role === 'master');
    expect(primaries).toHaveLength(3);
    expect([...snap.slots.values()].flat().reduce((n, [a, b]) => n + b - a + 1, 0)).toBe(16384);
    expect(snap.cluster?.state).toBe('ok');
    expect(primaries.map((p) => Number(p.address.split(':').at(-1))).sort()).toEqual(cluster.masters.map((m) => m.port).sort());
  });

  it("the Connections page's test names its 3 masters, the server and cluster mode", async () => {
    const { pool, spec } = fx();
    const r = await pool.test(spec);
    expect(r).toMatchObject({ ok: true, serverName: 'redis', mode: 'cluster', clusterState: 'ok' });
    expect(r.masters).toHaveLength(3);
  });
});
