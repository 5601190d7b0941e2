import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../core/redisProcess/freePort';
import { fill } from '../core/sampling/samplingTestKit';
import { runCli, type CliRun } from '../../testing/cli';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';

const redis = useRedis();
afterAll(closeAdmins);
beforeAll(async () => {
  const admin = await adminClient(redis());
  await fill(admin, 1_500, (p, i) => p.set(`user:${i}`, 'v'));
  // Each hash (60-byte value, still under hash-max-listpack-value) outweighs every string, so the top key by memory is a hash whatever the allocator rounds to.
  await fill(admin, 500, (p, i) => p.hset(`cart:${i}`, 'sku', 'x'.repeat(60)));
  await fill(admin, 500, (p, i) => p.expire(`user:${i}`, 7_200));
});

/** `cacheboard sample …` as a cron job runs it; `whenRunning` gets the child once it started. */
function cli(args: string[], whenRunning?: (child: ChildProcessWithoutNullStreams) => void, url = `${redis().url}/0`): Promise<CliRun> {
  return runCli(['sample', '--url', url, ...args], whenRunning);
}

describe('cacheboard sample', () => {
  it('--full --json prints one object with exact counts in the documented shape', async () => {
    const r = await cli(['--full', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(j).toMatchObject({
      method: 'census',
      dbsize: 2_000,
      keys_examined: 2_000,
      keys_missing: 0,
      types: {
        string: { count: 1_500, percent: 75, ci_low: 75, ci_high: 75 },
        hash: { count: 500, percent: 25 },
      },
      encodings: { string: { embstr: { count: 1_500 } }, hash: { listpack: { count: 500 } } },
      ttl: { none: { count: 1_500 }, lt1h: { count: 0 }, lt1d: { count: 500 } },
      namespaces: [
        { prefix: 'user:', parent: '', depth: 1, count: 1_500, percent: 75 },
        { prefix: 'cart:', parent: '', depth: 1, count: 500, percent: 25 },
      ],
    });
    for (const field of ['seconds', 'memory_total', 'top_by_memory', 'top_by_length', 'warnings']) expect(j).toHaveProperty(field);
    expect((j.top_by_memory as unknown[])[0]).toEqual(
      expect.objectContaining({ key: expect.any(String), key_bytes: expect.any(Number), type: 'hash', memory: expect.any(Number) }),
    );
  });

  it('prints redis-sampler-like lines for a sample: count, percent and the interval', async () => {
    const r = await cli(['--samples', '1000']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Sample of db0: 1000 draws of 2000 keys/);
    expect(r.out).toMatch(/^ {2}string: \d+ \(\d+\.\d\d% ±\d\.\d+\)/m);
    expect(r.out).toMatch(/^ {2}hash listpack: \d+/m);
    // Prefix rows count keys, estimated from draws with their interval: never the draws called keys.
    expect(r.out).toMatch(/^TOP NAMESPACES\n {2}user: {2}~\d+ keys \(95%: \d+-\d+; \d+ draws, \d+\.\d\d%\)/m);
    expect(r.out).toMatch(/^BIGGEST KEYS BY MEMORY \(of the draws: a sample finds big keys only by chance; --full measures every key\)$/m);
  });

  it('measures every key of a DB smaller than the sample asked for, and says so', async () => {
    const r = await cli(['--samples', '5000']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Census of db0: 2000 keys/);
    expect(r.out).toMatch(/^TOP NAMESPACES\n {2}user: {2}1500 keys \(75\.00%\)/m);
    expect(r.out).toContain('the DB holds 2000 keys, no more than the 5000 draws asked for: every key was measured (a census) instead of a sample');
  });

  it.each([
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('stops on %s, prints what it examined and exits %i', async (signal, exitCode) => {
    const r = await cli(['--full', '--json', '--scan-count', '10', '--pause-ms', '50'], (child) => {
      setTimeout(() => child.kill(signal), 1_500);
    });
    expect(r.code).toBe(exitCode);
    const j = JSON.parse(r.out) as { keys_examined: number };
    expect(j.keys_examined).toBeGreaterThan(0);
    expect(j.keys_examined).toBeLessThan(2_000);
  });

  it('exits 1 naming the flag on bad input, and naming the server when it is not there', async () => {
    const bad = await cli(['--samples', 'lots']);
    expect(bad).toMatchObject({ code: 1, out: '' });
    expect(bad.err).toMatch(/--samples must be a whole number/);
    const gone = await cli(['--json'], undefined, `redis://127.0.0.1:${await freePort()}/0`);
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/Cannot reach Redis at 127\.0\.0\.1:\d+/);
    expect(JSON.parse(gone.out)).toMatchObject({ error: { code: 'UNREACHABLE' } });
  });
});
