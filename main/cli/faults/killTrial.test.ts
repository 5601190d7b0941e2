import { spawn } from 'node:child_process';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs, runCli } from '../../../testing/cli';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { SCRATCH_ROOT } from '../../core/trials/scratch';

/*
 * Fault cases: a pipeline trial and an audience trial killed with SIGKILL while their
 * scratch keys exist. Every one of those keys carries a TTL (none can leak for good),
 * and the next pipeline trial sweeps what the killed one left.
 */
const redis = useRedis();
afterAll(closeAdmins);

async function scratchKeys(admin: Redis, db: number): Promise<string[]> {
  await admin.select(db);
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${SCRATCH_ROOT}*`, 'COUNT', 1000);
    cursor = next;
    out.push(...keys);
  } while (cursor !== '0');
  return out;
}

/**
 * Spawn `cacheboard …`, then hold the server's writes (CLIENT PAUSE WRITE) at a moment scratch
 * keys exist in `db` (retrying until one is caught, so however brief they live), kill -9 it, and
 * wait until its connections are gone. Returns the scratch keys left.
 */
async function killWithScratch(args: string[], db: number): Promise<string[]> {
  const admin = await adminClient(redis());
  const probe = admin.duplicate();
  const child = spawn(process.execPath, cliArgs(...args), { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('close', resolve));
  try {
    const caught = await eventually(
      async () => {
        await admin.client('PAUSE', '10000', 'WRITE');
        if ((await scratchKeys(probe, db)).length > 0) return true;
        await admin.client('UNPAUSE');
        return false;
      },
      60_000,
      5,
    );
    expect(caught).toBe(true);
    child.kill('SIGKILL');
    await exited;
  } finally {
    await admin.client('UNPAUSE');
    child.kill('SIGKILL');
  }
  expect(await eventually(async () => !/name=cacheboard:(trial|audience):/.test(String(await admin.client('LIST'))), 10_000)).toBe(true);
  const left = await scratchKeys(probe, db);
  probe.disconnect();
  return left;
}

async function ttlsOf(admin: Redis, db: number, keys: string[]): Promise<number[]> {
  await admin.select(db);
  const p = admin.pipeline();
  for (const k of keys) p.pttl(k);
  return ((await p.exec()) ?? []).map(([, v]) => Number(v));
}

// Real processes on a shared machine: each case gets a minute.
describe('kill -9 during a trial', { timeout: 60_000 }, () => {
  it('pipeline trial: its scratch keys all expire, and the next trial sweeps them at its start', async () => {
    const left = await killWithScratch(['trials', 'pipeline', '--url', `${redis().url}/2`, '--n', '200000', '--no-sweep', '--json'], 2);
    expect(left.length).toBeGreaterThan(0);
    const admin = await adminClient(redis());
    const ttls = await ttlsOf(admin, 2, left);
    expect(ttls.filter((t) => t <= 0)).toEqual([]);

    const next = await runCli(['trials', 'pipeline', '--url', `${redis().url}/2`, '--n', '100', '--no-sweep', '--json']);
    expect(next.code, next.err).toBe(0);
    const report = JSON.parse(next.out) as { warnings: string[] };
    expect(report.warnings).toContain(`Removed ${left.length} scratch keys an earlier trial left in DB 2 (it was stopped before its cleanup)`);
    expect(await scratchKeys(admin, 2)).toEqual([]);
  });

  it('audience trial: every scratch key it left carries a TTL', async () => {
    const url = `${redis().url}/3`;
    const demo = await runCli(['demo-data', '--url', url, '--users', '3000', '--days', '10', '--seed', '7']);
    expect(demo.code, demo.err).toBe(0);
    const left = await killWithScratch(
      [
        'audience',
        '--url',
        url,
        '--where',
        'gender=f AND (region=SA OR region=MA) AND NOT interest:news',
        '--from',
        '2024-01-01',
        '--to',
        '2024-01-10',
        '--trials',
        '200',
        '--json',
      ],
      3,
    );
    expect(left.length).toBeGreaterThan(0);
    const admin = await adminClient(redis());
    const ttls = await ttlsOf(admin, 3, left);
    expect(ttls.filter((t) => t <= 0)).toEqual([]);
  });
});
