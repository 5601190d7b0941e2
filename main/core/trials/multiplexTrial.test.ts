import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { privateConnector } from './connector';
import { counterKey, MULTIPLEX_VARIANTS, sendIncrs } from './multiplexTrial';
import { reportOf, scratchKeysIn, trialOn } from './trialTestKit';

const redis = useRedis();
let admin: Redis;
beforeAll(async () => {
  admin = await adminClient(redis());
});
afterAll(closeAdmins);

/** Counter j's value in every DB of `dbs`, as a row per DB. */
async function counters(dbs: number[], prefix: string, batch: number): Promise<number[][]> {
  const rows: number[][] = [];
  for (const db of dbs) {
    await admin.select(db);
    const values = await admin.mget(Array.from({ length: batch }, (_, j) => counterKey(prefix, j)));
    rows.push(values.map(Number));
  }
  return rows;
}

describe('multiplex trial', () => {
  it('each way leaves the same INCR totals in every DB, short last batch included', async () => {
    const prefix = 'cacheboard:trial:mux:';
    const dbs = [1, 2, 3];
    // 95 INCRs in batches of 10 dealt to 3 DBs: db1 gets batches 0, 3, 6 and the short 9th (5).
    const plan = { n: 95, batch: 10, dbs, prefix };
    const expected = [
      [4, 4, 4, 4, 4, 3, 3, 3, 3, 3],
      [3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
      [3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
    ];
    const connector = privateConnector(specFor(redis()));
    const own = await connector.dedicated(dbs[0]!);
    try {
      const perDb = await Promise.all(dbs.map((db) => connector.shared(db)));
      for (const variant of MULTIPLEX_VARIANTS) {
        await admin.flushall();
        let ticked = 0;
        await sendIncrs({ blocking: own.redis, perDb }, variant, plan, (n) => (ticked += n), new AbortController().signal);
        expect({ variant, counts: await counters(dbs, prefix, 10), ticked }).toEqual({ variant, counts: expected, ticked: 95 });
      }
    } finally {
      await own.release();
      await connector.close();
      await admin.flushall();
    }
  });

  it('reports the three ways against the sequential one and removes its counters from every DB', async () => {
    const r = await trialOn(redis(), { trial: 'multiplex', n: 500 });
    const report = reportOf(r);
    expect(report.dbs).toEqual([0, 1, 2, 3, 4]);
    expect(report.params).toEqual({ n: 500, batch: 10 });
    expect(report.variants.map((v) => v.variant)).toEqual([...MULTIPLEX_VARIANTS]);
    // 10 counters a DB, in 5 DBs, counted as they were removed.
    for (const v of report.variants) expect(v).toMatchObject({ ops: 500, keys: 50, errors: 0 });
    expect(report.variants[0]!.ratio).toBe(1);
    for (const v of report.variants) expect(v.ratio).toBeCloseTo(v.opsPerSec / report.variants[0]!.opsPerSec, 6);
    for (const db of report.dbs) expect(await scratchKeysIn(admin, db)).toEqual([]);
  });
});
