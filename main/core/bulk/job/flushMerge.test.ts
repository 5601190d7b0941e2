import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { phasesOf, respOf, runJob, snapshotDb, writeResp } from './loadTestKit';

const redis = useRedis({ args: ['--save', '3600 1'] });

let dir: string;
let journalDir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cacheboard-modes-'));
});
afterAll(async () => {
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  journalDir = mkdtempSync(join(dir, 'journal-'));
  const admin = await adminClient(redis());
  await admin.flushall();
});

describe('flush mode', () => {
  it('empties the target, loads into it, and warns that readers saw a partial dataset', async () => {
    const admin = await adminClient(redis());
    await admin.mset({ stale1: 'x', stale2: 'y' });
    const commands = Array.from({ length: 1_000 }, (_, i) => ['SET', `f:${i}`, String(i)]);
    const path = writeResp(dir, 'flush.resp', commands);
    const { report, events } = await runJob(redis(), { path, format: 'resp', mode: 'flush', journalDir });
    expect(report).toMatchObject({ outcome: 'ok', swapped: false, commands: 1_000, verify: { keys: 'ok', expectedKeys: 1_000, dbsize: 1_000 } });
    expect(report.stagingDb).toBeUndefined();
    expect(report.warnings.join('\n')).toMatch(/readers saw a partial dataset during the load/);
    expect(phasesOf(events)).toEqual(['preflight', 'loading', 'verifying', 'cleanup', 'done']);
    // The last word, as the page shows it: counts grouped like every other figure ("1,000", not "1000").
    expect(events.findLast((e) => e.kind === 'phase')).toMatchObject({
      phase: 'done',
      message: expect.stringMatching(/^DB 0 loaded: 1,000 commands, 0 errors, /) as unknown,
    });
    await admin.select(0);
    expect(await admin.exists('stale1', 'stale2')).toBe(0);
    expect(await admin.dbsize()).toBe(1_000);
    expect(await admin.get('f:999')).toBe('999');
  });

  it('stops at malformed input with file:line:column and says the target is partially loaded', async () => {
    const good = respOf(Array.from({ length: 100 }, (_, i) => ['SET', `g:${i}`, 'v']));
    const path = join(dir, 'broken.resp');
    writeFileSync(path, `${good}*2\r\n$3\r\nGET\r\nnot-a-bulk-string\r\n`);
    const { report } = await runJob(redis(), { path, format: 'resp', mode: 'flush', journalDir });
    expect(report.outcome).toBe('failed');
    expect(report.error?.code).toBe('VALIDATION');
    expect(report.error?.message).toMatch(/broken\.resp:70\d:\d+/);
    expect(report.error?.message).toMatch(/DB 0 is partially loaded: 100 of 100 commands sent were acknowledged/);
  });
});

describe('merge mode', () => {
  it('applies SET and DEL in input order, leaving other keys alone', async () => {
    const admin = await adminClient(redis());
    await admin.mset({ 'other:1': 'keep', 'm:0': 'before' });
    // Pseudo-random SET/DEL over few keys, so order matters on nearly every key.
    let seed = 42;
    const rnd = (n: number): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % n;
    const expected = new Map<string, string>([
      ['other:1', 'keep'],
      ['m:0', 'before'],
    ]);
    const commands: string[][] = [];
    for (let i = 0; i < 5_000; i++) {
      const key = `m:${rnd(50)}`;
      if (rnd(3) === 0) {
        commands.push(['DEL', key]);
        expected.delete(key);
      } else {
        commands.push(['SET', key, `v${i}`]);
        expected.set(key, `v${i}`);
      }
    }
    const path = writeResp(dir, 'merge.resp', commands);
    const { report } = await runJob(redis(), { path, format: 'resp', mode: 'merge', journalDir });
    expect(report).toMatchObject({ outcome: 'ok', commands: 5_000, errors: 0, verify: { replies: true, keys: 'skipped' } });

    await admin.select(0);
    const keys = (await admin.keys('*')).sort();
    expect(keys).toEqual([...expected.keys()].sort());
    expect(await admin.mget(keys)).toEqual(keys.map((k) => expected.get(k)));
  });

  it('in swap mode, a DEL in the input skips the key count and names DEL', async () => {
    const path = writeResp(dir, 'swapdel.resp', [
      ['SET', 'a', '1'],
      ['SET', 'b', '2'],
      ['DEL', 'a'],
    ]);
    const { report } = await runJob(redis(), { path, format: 'resp', mode: 'swap', journalDir });
    expect(report).toMatchObject({ outcome: 'ok', swapped: true, verify: { keys: 'skipped', note: expect.stringContaining('DEL') } });
    const admin = await adminClient(redis());
    await admin.select(0);
    expect(await snapshotDb(admin, 0)).toEqual(new Map([['b', expect.any(String)]]));
  });
});
