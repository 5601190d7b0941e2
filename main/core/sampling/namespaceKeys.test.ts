import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { fill, sampleOf, Z_9999 } from './samplingTestKit';
import { wilson } from './wilson';

const redis = useRedis();
afterAll(closeAdmins);

describe('prefix rows count keys, not draws', () => {
  it('a sample estimates the keys under a prefix from its draws, with an interval that holds the truth', async () => {
    const admin = await adminClient(redis());
    await admin.flushdb();
    await fill(admin, 5_000, (p, i) => p.set(`k:${i}`, 'v'));
    await fill(admin, 15_000, (p, i) => p.set(`other:${i}`, 'v'));
    const draws = 4_000;
    const { report } = await sampleOf(redis(), { method: 'sample', samples: draws });
    expect(report.method).toBe('sample');
    const k = report.namespaces.find((n) => n.prefix === 'k:');
    if (k === undefined) return expect.fail('no row for k:');
    // The draws are what was examined; the keys are the share of draws × DBSIZE, never the draws themselves.
    expect(k.keys).toBe(Math.round((k.count / draws) * 20_000));
    expect(k.keys).not.toBe(k.count);
    expect(k.keysLow).toBeLessThan(k.keys);
    expect(k.keysHigh).toBeGreaterThan(k.keys);
    // The true 5,000 inside the interval widened to 99.99% (a correct estimate fails one run in 10,000).
    const wide = wilson(k.count, draws, Z_9999);
    expect(5_000).toBeGreaterThanOrEqual((wide.low / 100) * 20_000);
    expect(5_000).toBeLessThanOrEqual((wide.high / 100) * 20_000);
  });

  it('a DB with fewer keys than the draws asked for gets a census, and says so', async () => {
    const admin = await adminClient(redis());
    await admin.flushdb();
    await fill(admin, 5_000, (p, i) => p.set(`k:${i}`, 'v'));
    const { report, events } = await sampleOf(redis(), { method: 'sample', samples: 10_000 });
    expect(events[0]).toMatchObject({ kind: 'started', method: 'census', dbsize: 5_000, target: 5_000 });
    expect(report).toMatchObject({ method: 'census', keysExamined: 5_000 });
    expect(report.warnings).toContain('the DB holds 5000 keys, no more than the 10000 draws asked for: every key was measured (a census) instead of a sample');
    expect(report.namespaces).toEqual([
      { prefix: 'k:', parent: '', depth: 1, count: 5_000, memory: report.memoryTotal, percent: 100, keys: 5_000, keysLow: 5_000, keysHigh: 5_000 },
    ]);
  });
});
