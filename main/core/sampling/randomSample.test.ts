import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { fill, sampleOf, typeRow, Z_9999 } from './samplingTestKit';
import { wilson } from './wilson';

const redis = useRedis();
afterAll(closeAdmins);

/** The true shares, from what beforeAll writes. */
const WRITTEN = { string: 6_000, hash: 2_500, list: 1_000, set: 500 };
const TOTAL = 10_000;
/** z of a 99.99% interval: a true share outside it means a bias, not bad luck (1 run in 10,000). */

beforeAll(async () => {
  const admin = await adminClient(redis());
  await fill(admin, WRITTEN.string, (p, i) => p.set(`s:${i}`, 'v'));
  await fill(admin, WRITTEN.hash, (p, i) => p.hset(`h:${i}`, 'f', 'v'));
  await fill(admin, WRITTEN.list, (p, i) => p.rpush(`l:${i}`, 'a', 'b'));
  await fill(admin, WRITTEN.set, (p, i) => p.sadd(`e:${i}`, 'a'));
});

describe('random sample', () => {
  it('draws N keys with RANDOMKEY and lands on the true shares, within their intervals', async () => {
    const n = 4_000;
    const { report, events } = await sampleOf(redis(), { method: 'sample', samples: n });
    expect(events[0]).toMatchObject({ kind: 'started', method: 'sample', dbsize: TOTAL, target: n });
    expect(report).toMatchObject({ method: 'sample', dbsize: TOTAL, keysExamined: n, keysMissing: 0 });
    for (const [type, written] of Object.entries(WRITTEN)) {
      const row = typeRow(report, type);
      const truth = (written / TOTAL) * 100;
      const wide = wilson(row?.count ?? 0, n, Z_9999);
      expect(truth, `${type}: ${row?.count} of ${n}`).toBeGreaterThanOrEqual(wide.low);
      expect(truth, `${type}: ${row?.count} of ${n}`).toBeLessThanOrEqual(wide.high);
      // The reported 95% interval brackets the sample's own percent and is about ±1.96 standard errors.
      const se = Math.sqrt(((truth / 100) * (1 - truth / 100)) / n) * 100;
      expect(row?.ciLow).toBeLessThan(row?.percent ?? 0);
      expect((row?.ciHigh ?? 0) - (row?.ciLow ?? 0)).toBeGreaterThan(2 * 1.5 * se);
      expect((row?.ciHigh ?? 0) - (row?.ciLow ?? 0)).toBeLessThan(2 * 2.5 * se);
      // Estimates scale the sample to DBSIZE.
      expect(row?.estimatedCount).toBe(Math.round(((row?.count ?? 0) * TOTAL) / n));
    }
    expect(report.estimatedMemoryTotal).toBe(Math.round((report.memoryTotal * TOTAL) / n));
  });

  it('counts repeats (draws are with replacement) but lists a top key once', async () => {
    // 9,000 draws of 10,000 keys: thousands of keys come twice (and a census is for more draws than keys).
    const { report } = await sampleOf(redis(), { method: 'sample', samples: 9_000 });
    expect(report).toMatchObject({ method: 'sample', keysExamined: 9_000 });
    const texts = report.topByMemory.map((k) => k.key.text);
    expect(new Set(texts).size).toBe(texts.length);
  });
});
