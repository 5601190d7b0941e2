import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { adminClient, startRedis } from '../../testing/redis';
import { countKeys, fillKeys, firstDeletes, startCli, useCliRuns } from './keyActionsTestKit';

/*
 * Issue 29 ("Trust"): a bulk delete whose Redis server is frozen mid-run (SIGSTOP, then SIGCONT)
 * finishes with exact counts, every matching key gone and every other key kept.
 */

const { env, servers } = useCliRuns('cb-cli-key-actions-held-');

describe('cacheboard keys delete while the server is SIGSTOPped', () => {
  it('a delete whose server was frozen ~2.5 s mid-run and then went on completes with exact counts, no matching key left and every other key kept', async () => {
    const matching = 120_000;
    const proc = await startRedis({ readyTimeoutMs: 30_000 });
    servers.push(proc);
    const admin = await adminClient(proc);
    await fillKeys(admin, 'm', matching);
    // Names close to the glob's that it must not take: "mm:1" and "m" do not match "m:*".
    await fillKeys(admin, 'mm', 40_000);
    await fillKeys(admin, 'keep', 40_000);
    await admin.set('m', 'v');
    const others = 80_001;
    const n = matching + others;
    expect(await admin.dbsize()).toBe(n);

    // A tight latency budget: small SCAN pages, so the run lasts seconds and the freeze lands mid-run.
    const run = startCli(['keys', 'delete', '--match', 'm:*', '--yes', '--json', '--url', `${proc.url}/0`, '--max-latency-ms', '0.5'], env);
    const before = await firstDeletes(admin, n);
    proc.kill('SIGSTOP');
    const frozenAt = Date.now();
    // The freeze is mid-run: the run had deleted some keys, not most, and had not finished.
    expect(run.running()).toBe(true);
    expect(before - others).toBeGreaterThan(matching / 4);
    await sleep(2_500);
    proc.kill('SIGCONT');
    const frozenMs = Date.now() - frozenAt;

    const end = await run.exited;
    expect(end.err).toBe('');
    expect(end.code).toBe(0);
    const r = JSON.parse(end.out) as Record<string, unknown>;
    expect(r).toMatchObject({
      action: 'delete',
      complete: true,
      matched: matching,
      acted: matching,
      deleted: matching,
      skipped: 0,
      errors: 0,
      exact: true,
      short_by_at_most: 0,
    });
    // The run's own clock spans the freeze: it waited through it rather than ending around it.
    expect(Number(r.seconds) * 1000).toBeGreaterThanOrEqual(frozenMs - 100);
    expect(await countKeys(admin, 'm:*')).toBe(0);
    expect(await admin.dbsize()).toBe(others);
    expect(await countKeys(admin, 'mm:*')).toBe(40_000);
    expect(await countKeys(admin, 'keep:*')).toBe(40_000);
    expect(await admin.exists('m')).toBe(1);
  }, 180_000);
});
