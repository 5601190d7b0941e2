import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliArgs, runCli } from '../../testing/cli';
import { adminClient, closeAdmins, eventually, useRedis } from '../../testing/redis';
import { countKeys, fillKeys } from './keyActionsTestKit';

const redis = useRedis();
const fresh = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'cb-cli-key-actions-'));
const env = { CACHEBOARD_DATA_DIR: join(dir, 'data') };
let admin: Redis;

beforeAll(async () => {
  admin = await adminClient(redis());
});
beforeEach(async () => {
  await admin.flushall();
});
afterAll(async () => {
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});

const fill = (prefix: string, n: number, ttl = 0) => fillKeys(admin, prefix, n, ttl);
const count = (glob: string, on: Redis = admin) => countKeys(on, glob);

const cli = (...args: string[]) => runCli(['keys', ...args, '--url', `${redis().url}/0`], undefined, env);
const json = (out: string) => JSON.parse(out) as Record<string, unknown>;
/** The checkpoints left in the data dir (what Resume offers). */
const checkpoints = () =>
  existsSync(join(env.CACHEBOARD_DATA_DIR, 'key-actions')) ? readdirSync(join(env.CACHEBOARD_DATA_DIR, 'key-actions')).filter((n) => n.endsWith('.json')) : [];

describe('cacheboard keys delete|expire|persist', () => {
  it('--dry-run counts and changes nothing; delete --yes --json prints the one documented object', async () => {
    await fill('price:eu', 2000);
    await fill('price:us', 500);
    const dry = await cli('delete', '--match', 'price:eu:*', '--dry-run', '--json');
    expect(dry.code).toBe(0);
    const d = json(dry.out);
    expect(d).toMatchObject({ action: 'delete', matched: 2000, acted: 0, skipped: 0, errors: 0, deleted: 0, dry_run: true });
    expect(d.samples).toHaveLength(20);
    expect(await count('price:eu:*')).toBe(2000);

    const del = await cli('delete', '--match', 'price:eu:*', '--yes', '--json');
    expect(del.code).toBe(0);
    expect(del.out.trim().split('\n')).toHaveLength(1);
    const r = json(del.out);
    expect(r).toMatchObject({ action: 'delete', matched: 2000, acted: 2000, skipped: 0, errors: 0, deleted: 2000 });
    expect(typeof r.seconds).toBe('number');
    expect(await count('price:eu:*')).toBe(0);
    expect(await count('price:us:*')).toBe(500);
  });

  it('refuses to act without --yes when there is no terminal to ask on', async () => {
    await fill('k', 50);
    const r = await cli('delete', '--match', 'k:*');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/without --yes/);
    expect(await count('k:*')).toBe(50);
  });

  it('expire --ttl with --jitter and --no-ttl-only, filtered by --type and --no-ttl; persist counts what had no TTL as skipped', async () => {
    await fill('s', 300);
    await fill('t', 100, 40);
    await admin.hset('s:h', 'f', 'v');
    const typed = json((await cli('expire', '--match', 's:*', '--type', 'hash', '--ttl', '100', '--yes', '--json')).out);
    expect(typed).toMatchObject({ action: 'expire', matched: 1, acted: 1, expired: 1 });
    const nx = json((await cli('expire', '--match', '*', '--ttl', '1000', '--jitter', '10', '--no-ttl-only', '--yes', '--json')).out);
    expect(nx).toMatchObject({ matched: 401, acted: 300, skipped: 101, errors: 0, expired: 300 });
    const ttls = await Promise.all(Array.from({ length: 300 }, (_, i) => admin.ttl(`s:${i + 1}`)));
    expect(ttls.every((t) => t >= 890 && t <= 1100)).toBe(true);
    expect(new Set(ttls).size).toBeGreaterThan(20);
    expect(await admin.ttl('t:1')).toBeLessThanOrEqual(40);
    const below = json((await cli('persist', '--match', '*', '--ttl-below', '60', '--yes', '--json')).out);
    expect(below).toMatchObject({ action: 'persist', matched: 100, acted: 100, persisted: 100 });
  });

  it('exits 1 when any key fails, and says why', async () => {
    await fill('locked', 30);
    await admin.acl('SETUSER', 'nounlink', 'on', '>pw', '~*', '&*', '+@all', '-unlink');
    const r = await runCli(
      ['keys', 'delete', '--match', 'locked:*', '--yes', '--json', '--url', `redis://nounlink:pw@127.0.0.1:${redis().port}/0`],
      undefined,
      env,
    );
    expect(r.code).toBe(1);
    expect(json(r.out)).toMatchObject({ matched: 30, acted: 0, errors: 30 });
    expect(String((json(r.out).error_samples as string[])[0])).toMatch(/NOPERM/);
    expect(await count('locked:*')).toBe(30);
  });

  it('flag errors name the flag', async () => {
    expect((await cli('expire', '--match', 'a*', '--yes')).err).toMatch(/--ttl SECONDS is required/);
    expect((await cli('delete', '--match', 'a*', '--ttl', '5')).err).toMatch(/--ttl is for `keys expire` only/);
    expect((await cli('delete', '--match', 'a*', '--out', 'x')).err).toMatch(/--out is for `keys export` only/);
    expect((await cli('delete', '--match', 'a*', '--full-speed', '--max-latency-ms', '3')).err).toMatch(/exclude each other/);
    expect((await cli('delete', '--match', 'a*', '--no-ttl', '--ttl-below', '3')).err).toMatch(/exclude each other/);
    expect((await cli('delete')).err).toMatch(/--match is required/);
  });
});

describe('cacheboard keys export', () => {
  it('writes RESTOREs that `cacheboard load --format resp` loads into a fresh server identically (DUMP per key)', async () => {
    await fill('e:str', 500);
    await fill('e:ttl', 200, 5000);
    for (let i = 0; i < 100; i++) {
      await admin.hset(`e:h:${i}`, 'a', String(i), 'b', 'x'.repeat(i % 40));
      await admin.rpush(`e:l:${i}`, 'a', 'b', String(i));
      await admin.zadd(`e:z:${i}`, i, 'm');
    }
    await admin.set(Buffer.from('e:bin:\xff\r\n', 'latin1'), Buffer.from([0, 1, 2, 255]));
    // A hashtable-encoded hash dumps its fields in the server's (seeded) table order: compared by content below.
    for (let i = 0; i < 300; i++) await admin.hset('e:bighash', `f${i}`, 'y'.repeat(100));
    await admin.set('other', 'not exported');
    const file = join(dir, 'keys.resp');
    const r = await cli('export', '--match', 'e:*', '--out', file, '--yes', '--json');
    expect(r.code).toBe(0);
    expect(json(r.out)).toMatchObject({ action: 'export', matched: 1002, acted: 1002, exported: 1002, file });

    const target = await adminClient(fresh());
    const load = await runCli(['load', file, '--format', 'resp', '--url', `${fresh().url}/0`, '--mode', 'merge', '--json'], undefined, env);
    expect(load.code).toBe(0);
    expect(await target.dbsize()).toBe(1002);
    let cursor = '0';
    let compared = 0;
    do {
      const [next, keys] = await admin.scanBuffer(cursor, 'MATCH', 'e:*', 'COUNT', 1000);
      for (const k of keys) {
        if ((await admin.object('ENCODING', k)) === 'hashtable') {
          const [a, b] = [await admin.hgetall(k), await target.hgetall(k)];
          expect(Object.keys(b).length).toBe(300);
          expect(b).toEqual(a);
        } else {
          expect(await target.dumpBuffer(k)).toEqual(await admin.dumpBuffer(k));
        }
        const [a, b] = [await admin.pttl(k), await target.pttl(k)];
        if (a === -1) expect(b).toBe(-1);
        else expect(Math.abs(a - b)).toBeLessThan(5_000);
        compared++;
      }
      cursor = next.toString();
    } while (cursor !== '0');
    expect(compared).toBe(1002);
    expect(await target.exists('other')).toBe(0);
  });

  it('refuses an --out that is a symlink or a directory', async () => {
    await fill('e', 5);
    const real = join(dir, 'real.resp');
    writeFileSync(real, 'keep');
    const link = join(dir, 'link.resp');
    symlinkSync(real, link);
    const linked = await cli('export', '--match', 'e:*', '--out', link, '--yes');
    expect(linked.code).toBe(1);
    expect(linked.err).toMatch(/is a symbolic link/);
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const dirOut = await cli('export', '--match', 'e:*', '--out', folder, '--yes');
    expect(dirOut.code).toBe(1);
    expect(dirOut.err).toMatch(/is a directory/);
    const missing = await cli('export', '--match', 'e:*', '--out', join(dir, 'no-such-folder', 'x.resp'), '--yes', '--json');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no-such-folder does not exist/);
    expect(json(missing.out)).toEqual({ error: { code: 'VALIDATION', message: expect.stringMatching(/does not exist/) as unknown } });
    // A refused export never began: it leaves no checkpoint that a resume would offer, and no partial file.
    expect(checkpoints()).toEqual([]);
    expect(readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);
  });
});

describe('cacheboard keys: stopped and resumed', () => {
  it('Ctrl-C stops after the page in flight, reports exactly and prints the id; --resume finishes and the counts add up', async () => {
    const n = 200_000;
    await fill('big', n);
    await fill('keep', 100);
    const child = spawn(process.execPath, cliArgs('keys', 'delete', '--match', 'big:*', '--yes', '--json', '--url', `${redis().url}/0`), {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Hold the run's writes mid-way (CLIENT PAUSE WRITE: its UNLINKs wait, nothing fails) so the signal lands mid-run.
    expect(await eventually(async () => (await admin.dbsize()) < n, 30_000, 2)).toBe(true);
    await admin.client('PAUSE', '10000', 'WRITE');
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 200));
    await admin.client('UNPAUSE');
    expect(await exited).toBe(130);
    const a = json(out);
    expect(a.complete).toBe(false);
    expect(a.resume).toBe(a.run_id);
    expect(Number(a.acted) + Number(a.skipped) + Number(a.errors)).toBe(a.matched);
    const left = await count('big:*');
    expect(left).toBe(n - Number(a.acted));
    expect(left).toBeGreaterThan(0);

    const resumed = await cli('delete', '--resume', String(a.run_id), '--yes', '--json');
    expect(resumed.code).toBe(0);
    const b = json(resumed.out);
    expect(b).toMatchObject({ run_id: a.run_id, complete: true, matched: n, acted: n, skipped: 0, errors: 0, deleted: n });
    expect(await count('big:*')).toBe(0);
    expect(await count('keep:*')).toBe(100);
    const again = await cli('delete', '--resume', String(a.run_id), '--yes');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/No cut bulk key action/);
  }, 60_000);
});
