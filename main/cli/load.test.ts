import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';
import { CLAIMING, setKeys } from '../core/bulk/job/appWritesTestKit';
import { writeWhenPostponed } from '../core/bulk/job/midLoadTestKit';
import { MSET_PAIRS } from '../core/bulk/sources/msetRun';

const redis = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'cb-cli-load-'));
// runCli's child inherits this: its audit log goes here, not to the user's data dir.
process.env.CACHEBOARD_DATA_DIR = join(dir, 'data');
afterAll(async () => {
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await (await adminClient(redis())).flushall();
});

/** `cacheboard load …` as a nightly job runs it, with its own data dir. */
function load(args: string[]) {
  const r = spawnSync(process.execPath, ['bin/cacheboard.js', 'load', ...args, '--url', `${redis().url}/0`], {
    encoding: 'utf8',
    env: { ...process.env, CACHEBOARD_DATA_DIR: join(dir, 'data'), USER: 'nightly' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('cacheboard load', () => {
  it('swaps a CSV in, prints the documented JSON and writes the audit log', async () => {
    const n = 500 + (redis().port % 100);
    const csv = join(dir, 'users.csv');
    writeFileSync(csv, `id,name\n${Array.from({ length: n }, (_, i) => `${i},name-${i}`).join('\n')}\n`);
    const r = load([csv, '--key', 'user:{id}', '--value', 'name', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    // String rows without a ttl go as MSETs: commands are fewer than records.
    expect(j).toMatchObject({ records: n, commands: Math.ceil(n / MSET_PAIRS), errors: 0, mode: 'swap', swapped: true, outcome: 'ok' });
    for (const k of ['seconds', 'ops_per_sec', 'bgsave_seconds']) expect(j).toHaveProperty(k);
    const admin = await adminClient(redis());
    expect(await admin.dbsize()).toBe(n);
    expect(await admin.get(`user:${n - 1}`)).toBe(`name-${n - 1}`);
    const audit = readFileSync(join(dir, 'data', 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(audit.at(-1)).toMatchObject({ user: 'cli:nightly', action: 'bulk.swap', target: `127.0.0.1:${redis().port}/0`, outcome: 'ok' });
  });

  it('fails with file:line on malformed input, exit code 1, and leaves the live DB untouched', async () => {
    const admin = await adminClient(redis());
    await admin.set('live', 'before');
    const cmds = join(dir, 'bad.txt');
    writeFileSync(cmds, 'SET a 1\nSET b "unterminated\nSET c 3\n');
    const r = load([cmds, '--format', 'commands', '--json']);
    expect(r.code).toBe(1);
    expect(r.out + r.err).toContain('bad.txt:2');
    expect(await admin.get('live')).toBe('before');
    expect(await admin.exists('a')).toBe(0);
  });

  it('refuses an empty file over a live DB: exit code 1, both counts and the flag to pass; --json has the error object', async () => {
    const admin = await adminClient(redis());
    await admin.mset({ 'live:a': '1', 'live:b': '2', 'live:c': '3' });
    const empty = join(dir, 'header-only.csv');
    writeFileSync(empty, 'id,name\n');
    const url = `${redis().url}/0`;
    const plain = await runCli(['load', empty, '--key', 'user:{id}', '--value', 'name', '--url', url]);
    expect(plain.code).toBe(1);
    expect(plain.out).toMatch(/^FAILED: header-only\.csv -> db0 \(swap\)/);
    expect(plain.out).toContain('keys: new 0, live 3');
    expect(plain.out).toContain('Staging DB 15 holds 0 keys and the live DB 0 holds 3 keys: the swap would empty DB 0');
    expect(plain.out).toContain('pass --allow-empty');
    expect(plain.out).toContain('DB 0 is untouched (checked: 3 keys before and after, the 3 keys sampled before all still there)');
    expect(await admin.mget('live:a', 'live:b', 'live:c')).toEqual(['1', '2', '3']);

    const json = await runCli(['load', empty, '--key', 'user:{id}', '--value', 'name', '--url', url, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({
      outcome: 'failed',
      swapped: false,
      new_keys: 0,
      live_keys: 3,
      live_check: { db: 0, keys_before: 3, keys_after: 3, sampled: 3, missing: 0, unchanged: true },
      error: { code: 'VALIDATION', field: 'allow-empty', message: expect.stringContaining('holds 0 keys and the live DB 0 holds 3 keys') },
    });

    const allowed = await runCli(['load', empty, '--key', 'user:{id}', '--value', 'name', '--url', url, '--allow-empty', '--json']);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.out)).toMatchObject({ outcome: 'ok', swapped: true, new_keys: 0, live_keys: 3 });
    expect(await admin.dbsize()).toBe(0);
  });

  it('an application writing into DB 0 while a swap into DB 8 stages keeps its keys: staging is DB 15, never DB 0', async () => {
    const admin = await adminClient(redis());
    await admin.select(8);
    await admin.mset(Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`live:${i}`, `old-${i}`])));
    const resp = join(dir, 'big0.resp');
    writeFileSync(resp, Array.from({ length: 40_000 }, (_, i) => `*3\r\n$3\r\nSET\r\n$${`k:${i}`.length}\r\nk:${i}\r\n$1\r\nv\r\n`).join(''));
    await admin.client('PAUSE', '30000', 'WRITE');
    const run = runCli(['load', resp, '--url', `${redis().url}/8`, '--mode', 'swap', '--json']);
    await writeWhenPostponed(redis(), CLAIMING, 0, setKeys('app:order:', 50));
    const r = await run;
    expect(r.code, r.out + r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      outcome: 'ok',
      swapped: true,
      new_keys: 40_000,
      live_keys: 1_000,
      live_writes: { db: 8, writes: 0, discarded: 0 },
    });
    await admin.select(0);
    expect((await admin.keys('*')).filter((k) => k.startsWith('app:order:'))).toHaveLength(50);
    expect(await admin.dbsize()).toBe(50);
  });

  it('a swap whose live DB another client writes to is refused (exit 1, live_writes counted); --allow-live-writes switches and reports them discarded', async () => {
    const admin = await adminClient(redis());
    await admin.select(8);
    await admin.mset(Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`live:${i}`, `old-${i}`])));
    const resp = join(dir, 'big.resp');
    writeFileSync(resp, Array.from({ length: 40_000 }, (_, i) => `*3\r\n$3\r\nSET\r\n$${`k:${i}`.length}\r\nk:${i}\r\n$1\r\nv\r\n`).join(''));
    const url = `${redis().url}/8`;
    for (const allow of [false, true]) {
      await admin.client('PAUSE', '30000', 'WRITE');
      const run = runCli(['load', resp, '--url', url, '--mode', 'swap', '--json', ...(allow ? ['--allow-live-writes'] : [])]);
      await writeWhenPostponed(redis(), CLAIMING, 8, setKeys('order:', 30));
      const r = await run;
      const j = JSON.parse(r.out) as Record<string, unknown>;
      if (!allow) {
        expect(r.code).toBe(1);
        expect(j).toMatchObject({
          outcome: 'failed',
          swapped: false,
          live_keys: 1_030,
          live_writes: { db: 8, writes: 30, discarded: 0, keys: ['order:0', 'order:1', 'order:2', 'order:3', 'order:4'] },
          error: {
            code: 'VALIDATION',
            field: 'allow-live-writes',
            message: expect.stringContaining('Other clients wrote to the live DB 8 30 times during the load'),
          },
        });
        expect(await admin.dbsize()).toBe(1_030);
      } else {
        expect(r.code, r.out + r.err).toBe(0);
        expect(j).toMatchObject({ outcome: 'ok', swapped: true, live_writes: { db: 8, writes: 30, discarded: 30 } });
        expect(await admin.dbsize()).toBe(40_000);
        expect(await admin.exists('order:0')).toBe(0);
      }
    }
    expect(await admin.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', '']);
  });
});
