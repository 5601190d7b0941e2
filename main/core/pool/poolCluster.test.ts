import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseHostPort } from '../../../app/hostPort';
import { useCluster } from '../../../testing/cluster';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { clientsNamed, eventually } from '../../../testing/redis';
import { openRawConnection } from '../resp/rawConnection';
import { Pool } from './pool';
import type { ConnectionState, ProfileSpec } from './types';

const PASSWORD = 'cluster-pw-3';
const cluster = useCluster({ password: PASSWORD });

function clusterSpec(over: Partial<ProfileSpec> = {}): ProfileSpec {
  const seeds = cluster()
    .addresses.slice(0, 2)
    .map((a) => {
      const at = parseHostPort(a, 0);
      if ('error' in at) throw new Error(at.error);
      return at;
    });
  const first = seeds[0] ?? { host: '127.0.0.1', port: 1 };
  return specFor(first, { name: 'cluster', password: PASSWORD, topology: { kind: 'cluster', seeds }, ...over });
}

const pools: Pool[] = [];
function makePool(spec: ProfileSpec = clusterSpec()): Pool {
  const pool = new Pool(profileRegistry({ c: spec }));
  pools.push(pool);
  return pool;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
});

const admins: Redis[] = [];
async function admin(port: number): Promise<Redis> {
  const r = new Redis({ port, password: PASSWORD, lazyConnect: true, retryStrategy: () => null });
  await r.connect();
  admins.push(r);
  return r;
}
afterAll(() => admins.forEach((r) => r.disconnect()));

describe('Pool with a cluster profile', () => {
  it('routes commands by slot over one pooled Cluster client, authenticated and named on every master', async () => {
    const pool = makePool();
    const c = await pool.cluster('c');
    expect(await pool.cluster('c')).toBe(c);
    await Promise.all(Array.from({ length: 300 }, (_, i) => c.set(`pool:${i}`, String(i))));
    expect(await c.get('pool:299')).toBe('299');
    const sizes = await Promise.all(cluster().masters.map(async (m) => (await admin(m.port)).dbsize()));
    expect(sizes.every((n) => n > 0)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    for (const m of cluster().masters) expect(await clientsNamed(await admin(m.port), 'cacheboard:shared:c')).toHaveLength(1);
  });

  it("refuses single-node connections to a cluster profile with UNSUPPORTED, raw sockets and monitoring's start too", async () => {
    const pool = makePool();
    for (const attempt of [pool.shared('c'), pool.monitoring('c'), pool.dedicated('c', { purpose: 'bulk' })]) {
      await expect(attempt).rejects.toMatchObject({ code: 'UNSUPPORTED', message: expect.stringContaining('Redis Cluster') });
    }
    await expect(openRawConnection(clusterSpec(), 0)).rejects.toMatchObject({ code: 'UNSUPPORTED', message: expect.stringContaining('is a Redis Cluster') });
    // Monitoring starts at address(): from one seed it would see one shard and call it the cluster.
    expect(() => pool.address('c')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
  });

  it('names the masters with their slots as plain specs, and every node with its role', async () => {
    const pool = makePool();
    expect(pool.topology('c')).toBe('cluster');
    const masters = await pool.masters('c');
    expect(masters.map((m) => m.address).sort()).toEqual(
      cluster()
        .masters.map((m) => `127.0.0.1:${m.port}`)
        .sort(),
    );
    const slots = masters.flatMap((m) => m.slots ?? []).sort((a, b) => a[0] - b[0]);
    expect(slots.reduce((n, [a, b]) => n + b - a + 1, 0)).toBe(16384);
    for (const m of masters) {
      expect(m.spec).toMatchObject({ host: '127.0.0.1', password: PASSWORD, db: 0 });
      expect(m.spec.topology).toBeUndefined();
    }
    const nodes = await pool.nodes('c');
    expect(nodes).toHaveLength(6);
    const replicas = nodes.filter((n) => n.role === 'replica');
    expect(replicas.map((r) => r.master).sort()).toEqual(masters.map((m) => m.address).sort());
    // A node of the cluster, reached directly with the profile's credentials.
    const direct = await pool.node('c', replicas[0]?.address ?? '');
    expect(await direct.call('ROLE')).toContain('slave');
  });

  it('gives dedicated Cluster clients that release() closes', async () => {
    const pool = makePool();
    const own = await pool.dedicatedCluster('c', 'bulk');
    expect(own.cluster).not.toBe(await pool.cluster('c'));
    await own.cluster.set('dedicated', '1');
    await own.release();
    expect(own.cluster.status).toBe('end');
  });

  it('tests a cluster draft: mode, state and masters; a wrong password is named as such', async () => {
    const pool = makePool();
    const ok = await pool.test(clusterSpec());
    expect(ok).toMatchObject({ ok: true, mode: 'cluster', clusterState: 'ok' });
    expect(ok.masters).toHaveLength(3);
    const wrong = await pool.test(clusterSpec({ password: 'nope' }));
    expect(wrong).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });
    expect(JSON.stringify(wrong)).not.toContain('nope');
  });

  it('reports the cluster client on the state stream: ready, then closed', async () => {
    const pool = makePool();
    const seen: ConnectionState[] = [];
    pool.onState((s) => seen.push(s));
    await pool.cluster('c');
    expect(seen.map((s) => s.state)).toEqual(['connecting', 'ready']);
    await pool.closeProfile('c');
    expect(await eventually(() => seen.at(-1)?.state === 'closed')).toBe(true);
  });
});
