import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { openRawConnection, type RawConnection } from '../resp/rawConnection';
import { sendRequests, type LoadPlan } from './loadRequests';
import { reportOf, scratchKeysIn, trialOn } from './trialTestKit';

const redis = useRedis();
let admin: Redis;
beforeAll(async () => {
  admin = await adminClient(redis());
});
afterAll(closeAdmins);

/** `plan` over `clients` raw connections of the test's own, closed afterwards. */
async function requests(clients: number, plan: LoadPlan) {
  const conns: RawConnection[] = [];
  try {
    for (let i = 0; i < clients; i++) conns.push(await openRawConnection(specFor(redis()), 0, { name: 'cacheboard:trial:loadtest' }));
    let replies = 0;
    const figures = await sendRequests(conns, plan, () => replies++, new AbortController().signal);
    return { ...figures, replies };
  } finally {
    for (const c of conns) c.destroy();
  }
}

describe('load trial', () => {
  it('SETs values of the given size under redis-benchmark-like keys drawn from the keyspace', async () => {
    const prefix = 'cacheboard:trial:loadtest:';
    try {
      const f = await requests(4, { command: 'set', n: 500, dataSize: 7, keyspace: 20, prefix });
      expect(f).toMatchObject({ requests: 500, replies: 500, errors: 0 });
      expect(f.histogram.count).toBe(500);
      const keys = await scratchKeysIn(admin, 0);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.length).toBeLessThanOrEqual(20);
      for (const k of keys) expect(k).toMatch(/^cacheboard:trial:loadtest:key:0000000000[01]\d$/);
      expect(new Set(await admin.mget(keys))).toEqual(new Set(['xxxxxxx']));
    } finally {
      await admin.flushall();
    }
  });

  it('counts error replies and goes on through them, as redis-benchmark does', async () => {
    const prefix = 'cacheboard:trial:loadtest:';
    // keyspace 1: every GET hits the one key, a hash.
    await admin.hset(`${prefix}key:000000000000`, 'f', 'v');
    try {
      const f = await requests(3, { command: 'get', n: 300, dataSize: 3, keyspace: 1, prefix });
      expect(f).toMatchObject({ requests: 300, errors: 300 });
      expect(f.firstError).toMatch(/^WRONGTYPE/);
    } finally {
      await admin.flushall();
    }
  });

  it('reports requests/s and latency percentiles for SET then GET, and removes the keys it wrote', async () => {
    const r = await trialOn(redis(), { trial: 'load', n: 3_000, clients: 10, dataSize: 16, keyspace: 100 });
    const report = reportOf(r);
    expect(report.params).toEqual({ n: 3_000, clients: 10, dataSize: 16, keyspace: 100 });
    expect(report.variants.map((v) => v.variant)).toEqual(['set', 'get']);
    for (const v of report.variants) {
      expect(v).toMatchObject({ ops: 3_000, errors: 0 });
      expect(v.ratio).toBeUndefined();
      expect(v.opsPerSec).toBeCloseTo(v.ops / v.seconds, 6);
      const l = v.latency!;
      expect(l.p50Ms).toBeGreaterThan(0);
      expect([l.p50Ms, l.p95Ms, l.p99Ms, l.maxMs]).toEqual([l.p50Ms, l.p95Ms, l.p99Ms, l.maxMs].sort((a, b) => a - b));
    }
    // 3,000 random draws from 100 keys: all 100 are written (a miss has odds of ~1e-11 per key).
    expect(report.variants[0]!.keys).toBe(100);
    expect(report.warnings).toEqual([]);
    expect(await scratchKeysIn(admin, 0)).toEqual([]);
  });
});
