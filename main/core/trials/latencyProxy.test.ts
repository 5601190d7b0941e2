import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { openRawConnection } from '../resp/rawConnection';
import { proxiedSpec } from './connector';
import { startLatencyProxy } from './latencyProxy';
import { pingMs } from './roundTrip';
import { reportOf, scratchKeysIn, trialOn } from './trialTestKit';
import { TrialPipe } from './trialPipe';

const redis = useRedis();
let admin: Redis;
beforeAll(async () => {
  admin = await adminClient(redis());
});
afterAll(closeAdmins);

/** A pipe of the test's own to `spec`'s server, straight or through a proxy. */
async function pipeTo(target: { host: string; port: number }): Promise<TrialPipe> {
  const spec = specFor(redis());
  const conn = await openRawConnection(proxiedSpec(spec, target), 0, { name: 'cacheboard:trial:proxytest' });
  return new TrialPipe(conn, { host: spec.host, port: spec.port });
}

/** The fastest of `count` PING round trips, in ms: a busy machine only ever makes one slower. */
async function fastestPingMs(pipe: TrialPipe, count: number): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < count; i++) best = Math.min(best, await pingMs(pipe));
  return best;
}

/**
 * Lower bounds only: the proxy can never deliver early, while a busy machine can
 * always make it late, so "at least 80% of 2 x R" is what holds on any box.
 */
describe('latency proxy', () => {
  it.each([0.3, 2])('adds at least 2 x %s ms to a round trip', async (delayMs) => {
    const proxy = await startLatencyProxy(specFor(redis()), delayMs);
    const direct = await pipeTo(specFor(redis()));
    const through = await pipeTo(proxy);
    try {
      const added = (await fastestPingMs(through, 15)) - (await fastestPingMs(direct, 15));
      expect(added).toBeGreaterThanOrEqual(2 * delayMs * 0.8);
    } finally {
      direct.destroy();
      through.destroy();
      await proxy.close();
    }
  });

  it('carries a value far larger than a socket buffer both ways, unchanged', async () => {
    const proxy = await startLatencyProxy(specFor(redis()), 0.3);
    const through = await pipeTo(proxy);
    const value = 'abcdefgh'.repeat(512 * 1024); // 4 MiB: the forwarder has to wait for drain
    try {
      await through.call('SET', 'cacheboard:trial:proxytest:big', value);
      const back = await through.call('GET', 'cacheboard:trial:proxytest:big');
      expect(Buffer.isBuffer(back) && back.equals(Buffer.from(value))).toBe(true);
    } finally {
      through.destroy();
      await proxy.close();
      await admin.del('cacheboard:trial:proxytest:big');
    }
  });

  it('a trial run through it reports the added round trip and pays it on every plain SET', async () => {
    const latencyMs = 1;
    const report = reportOf(await trialOn(redis(), { trial: 'pipeline', n: 200, batch: 50, sweep: false, latencyMs }));
    expect(report.latency).toMatchObject({ requestedMs: latencyMs });
    expect(report.latency!.addedRttMs).toBeGreaterThanOrEqual(2 * latencyMs * 0.8);
    expect(report.latency!.proxiedRttMs - report.latency!.directRttMs).toBeCloseTo(report.latency!.addedRttMs, 6);
    const plain = report.variants.find((v) => v.variant === 'plain')!;
    expect((plain.seconds * 1000) / plain.ops).toBeGreaterThanOrEqual(2 * latencyMs * 0.8);
    // 4 round trips for 200 SETs instead of 200: the point of the trial, magnified by the distance (~40x).
    expect(report.variants.find((v) => v.variant === 'pipelined')!.ratio).toBeGreaterThanOrEqual(3);
    expect(await scratchKeysIn(admin, 0)).toEqual([]);
  });
});
