import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';

const redis = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'cb-cli-load-'));
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
    expect(j).toMatchObject({ records: n, commands: n, errors: 0, mode: 'swap', swapped: true, outcome: 'ok' });
    for (const k of ['seconds', 'ops_per_sec', 'bgsave_seconds']) expect(j).toHaveProperty(k);
    const admin = await adminClient(redis());
    expect(await admin.dbsize()).toBe(n);
    expect(await admin.get(`user:${n - 1}`)).toBe(`name-${n - 1}`);
    const audit = readFileSync(join(dir, 'data', 'audit.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
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
});
