import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchKeysIn } from '../core/trials/trialTestKit';
import { runCli, type CliRun } from '../../testing/cli';
import { adminClient, closeAdmins, eventually, useRedis } from '../../testing/redis';

const redis = useRedis();
let admin: Redis;
beforeAll(async () => {
  admin = await adminClient(redis());
  await admin.select(1);
  await admin.set('somebody:else', 'theirs');
});
afterAll(closeAdmins);

/** `cacheboard trials …` as a shell runs it, on `db`; `whenRunning` gets the child once it started. */
function cli(args: string[], db = 0, whenRunning?: (child: ChildProcessWithoutNullStreams) => void): Promise<CliRun> {
  return runCli(['trials', ...args, '--url', `${redis().url}/${db}`], whenRunning);
}

type Json = Record<string, unknown> & { variants: Record<string, Record<string, unknown>> };

describe('cacheboard trials', () => {
  it('pipeline --json prints one object: each variant with seconds, ops/s and its ratio to plain', async () => {
    const r = await cli(['pipeline', '--n', '2000', '--sweep-n', '100', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Json;
    expect(j).toMatchObject({ trial: 'pipeline', outcome: 'done', dbs: [0], params: { n: 2_000, batch: 1_000, sweep_n: 100 }, warnings: [] });
    expect(Object.keys(j.variants)).toEqual(['plain', 'pipelined', 'multi', 'pipelinedMulti']);
    for (const v of Object.values(j.variants)) {
      expect(v).toEqual(expect.objectContaining({ ops: 2_000, seconds: expect.any(Number), ops_per_sec: expect.any(Number), ratio: expect.any(Number) }));
    }
    expect(j.variants['plain']!['ratio']).toBe(1);
    expect(j['sweep']).toHaveLength(7);
    expect(await scratchKeysIn(admin, 0)).toEqual([]);
  });

  it('load prints a redis-benchmark-like table of requests/s and latency percentiles', async () => {
    const r = await cli(['load', '--n', '500', '--clients', '5']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Load trial on 127\.0\.0\.1:\d+\/0: 5 clients, 500 requests per command/);
    expect(r.out).toMatch(/^ {2}command +requests\/s +p50 ms +p95 ms +p99 ms +max ms +errors$/m);
    expect(r.out).toMatch(/^ {2}SET +[\d,]+ +\d+\.\d{3} +\d+\.\d{3} +\d+\.\d{3} +\d+\.\d{3} +0$/m);
    expect(r.out).toMatch(/^ {2}GET +[\d,]+ /m);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)("stops on %s with exit code %i, prints what finished, and leaves only the DB's own keys", async (signal, exitCode) => {
    const r = await cli(['multiplex', '--n', '1000000', '--dbs', '2', '--confirm-non-empty', '--json'], 1, (child) => {
      void eventually(async () => (await scratchKeysIn(admin, 1)).length > 0, 10_000).then(() => child.kill(signal));
    });
    expect(r.code).toBe(exitCode);
    expect(JSON.parse(r.out)).toMatchObject({ trial: 'multiplex', outcome: 'cancelled', variants: {} });
    // stdout is the JSON alone; what the stop does is said on stderr all the same.
    expect(r.err).toContain("Stopping: removing the trial's scratch keys");
    expect(await scratchKeysIn(admin, 1)).toEqual([]);
    expect(await scratchKeysIn(admin, 2)).toEqual([]);
    await admin.select(1);
    expect(await admin.dbsize()).toBe(1);
    expect(await admin.get('somebody:else')).toBe('theirs');
  });

  it('refuses a DB with keys of its own naming --confirm-non-empty, and a bad flag by its name', async () => {
    const r = await cli(['pipeline', '--n', '10', '--json'], 1);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^cacheboard: --confirm-non-empty: db 1 .* holds keys of its own .*\(--confirm-non-empty\)/);
    expect(JSON.parse(r.out)).toMatchObject({ error: { code: 'VALIDATION', flag: 'confirm-non-empty' } });
    const bad = await cli(['load', '--clients', 'many']);
    expect(bad).toMatchObject({ code: 1, out: '' });
    expect(bad.err).toMatch(/--clients must be a whole number/);
  });
});
