import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SamplingEvent, type SamplingReport } from '../../../app/schemas/sampling';
import { runCli } from '../../../testing/cli';
import { useCluster } from '../../../testing/cluster';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { Pool } from '../pool/pool';
import type { ProfileSpec } from '../pool/types';
import { allocateSamples } from './allocate';
import { runSampling, type SamplingSettings } from './runSampling';
import { samplingWhere } from './samplingWhere';
import { typeRow, Z_9999 } from './samplingTestKit';
import { wilson } from './wilson';

const cluster = useCluster();
let pool: Pool;
/** Each master's own DBSIZE, by address. */
const dbsizes = new Map<string, number>();

/** The known mix: 3,000 strings, 600 hashes, 300 sets, 100 zsets with a TTL; their slots spread them over all three masters. */
const MIX = { string: 3_000, hash: 600, set: 300, zset: 100 };
const TOTAL = 4_000;

function clusterSpec(over: Partial<ProfileSpec> = {}): ProfileSpec {
  const [host = '127.0.0.1', port] = (cluster().addresses[0] ?? '').split(':');
  const seed = { host, port: Number(port) };
  return specFor(seed, { name: 'cluster', topology: { kind: 'cluster', seeds: [seed] }, ...over });
}

beforeAll(async () => {
  const seed = cluster().masters[0];
  const client = new Cluster([{ host: seed?.host ?? '127.0.0.1', port: seed?.port ?? 0 }], { lazyConnect: true, enableAutoPipelining: true });
  await client.connect();
  try {
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < MIX.string; i++) writes.push(client.set(`user:${i}`, 'v'));
    for (let i = 0; i < MIX.hash; i++) writes.push(client.hset(`cart:${i}`, 'sku', 'x'.repeat(40)));
    for (let i = 0; i < MIX.set; i++) writes.push(client.sadd(`tag:${i}`, 'a', 'b', 'c'));
    for (let i = 0; i < MIX.zset; i++) writes.push(client.zadd(`rank:${i}`, 1, 'a').then(() => client.expire(`rank:${i}`, 7_200)));
    await Promise.all(writes);
  } finally {
    client.disconnect();
  }
  for (const m of cluster().masters) {
    const r = new Redis({ host: m.host, port: m.port, lazyConnect: true });
    await r.connect();
    dbsizes.set(`${m.host}:${m.port}`, await r.dbsize());
    r.disconnect();
  }
  pool = new Pool(profileRegistry({ c: clusterSpec() }));
}, 60_000);
afterAll(async () => {
  await pool.shutdown();
});

async function runOn(options: Partial<SamplingSettings>): Promise<SamplingReport> {
  const where = await samplingWhere(pool, 'c', clusterSpec(), 0);
  const settings: SamplingSettings = { method: 'census', samples: 10_000, scanCount: 1_000, pauseMs: 0, memorySamples: 5, db: 0, ...options };
  const end = await runSampling({ options: settings, ...where('cacheboard:sampling:test') }, (e) => SamplingEvent.parse(e), new AbortController().signal);
  if (end.kind === 'failed') expect.fail(`${end.error.code} ${end.error.message}`);
  return end.report;
}

describe('sampling a Redis Cluster', () => {
  it('a census SCANs every master once (replicas skipped) and counts the mix exactly, matching the summed DBSIZE', async () => {
    const r = await runOn({ method: 'census' });
    expect([...dbsizes.values()].every((n) => n > 0)).toBe(true);
    expect(r.dbsize).toBe(TOTAL);
    expect(r.keysExamined).toBe(TOTAL);
    for (const [type, count] of Object.entries(MIX)) expect(typeRow(r, type)).toMatchObject({ count, percent: (100 * count) / TOTAL });
    expect(r.ttl.find((t) => t.bucket === 'lt1d')?.count).toBe(MIX.zset);
    expect(r.namespaces.find((n) => n.prefix === 'user:')).toMatchObject({ count: MIX.string });
    expect(r.topByMemory[0]?.type).not.toBe('string');
    // Per master: exactly what each master holds, nothing from the replicas.
    expect(r.masters?.map((m) => [m.address, m.keysExamined]).sort()).toEqual([...dbsizes.entries()].sort());
    expect(r.masters?.map((m) => m.dbsize).sort()).toEqual([...dbsizes.values()].sort());
    expect(r.masters?.reduce((n, m) => n + m.memory, 0)).toBe(r.memoryTotal);
    // By script on every master: a page spans many slots, which the script's flags allow.
    expect(r.warnings).toEqual([]);
  });

  it('a sample draws from each master in proportion to its DBSIZE, and its percentages hold the true share', async () => {
    // Fewer draws than keys: as many or more would be a census.
    const samples = 3_000;
    const r = await runOn({ method: 'sample', samples });
    expect(r.keysExamined).toBe(samples);
    const masters = r.masters ?? [];
    expect(masters.map((m) => m.keysExamined)).toEqual(
      allocateSamples(
        samples,
        masters.map((m) => m.dbsize),
      ),
    );
    // The true share inside the sample's 99.99% interval (a correct sampler fails one run in 10,000 per type).
    for (const [type, count] of Object.entries(MIX)) {
      const row = typeRow(r, type);
      const truth = (100 * count) / TOTAL;
      const wide = wilson(row?.count ?? 0, samples, Z_9999);
      expect(truth, `${type}: ${row?.count} of ${samples}`).toBeGreaterThanOrEqual(wide.low);
      expect(truth, `${type}: ${row?.count} of ${samples}`).toBeLessThanOrEqual(wide.high);
    }
  });

  it('refuses a DB other than 0, as the cluster would', async () => {
    await expect(samplingWhere(pool, 'c', clusterSpec(), 2)).rejects.toThrow(/db must be 0 on a Redis Cluster/);
  });

  it('cacheboard sample --cluster --full --json counts every master, with a per-master table', async () => {
    const [first, ...rest] = cluster().addresses;
    const out = await runCli(['sample', '--url', `redis://${first ?? ''}/0`, '--cluster', '--seeds', rest.slice(0, 1).join(','), '--full', '--json']);
    expect(out.err).toBe('');
    expect(out.code).toBe(0);
    const j = JSON.parse(out.out) as { dbsize: number; keys_examined: number; masters: Array<{ address: string; keys_examined: number }> };
    expect(j).toMatchObject({ method: 'census', db: 0, dbsize: TOTAL, keys_examined: TOTAL });
    expect(j.masters.map((m) => [m.address, m.keys_examined]).sort()).toEqual([...dbsizes.entries()].sort());
  });
});
