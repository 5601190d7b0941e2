import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../server/auth/passwords';
import { readUsers } from '../server/auth/users';

const dir = mkdtempSync(join(tmpdir(), 'cb-user-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], input = '') {
  const r = spawnSync(process.execPath, ['bin/cacheboard.js', 'user', ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, CACHEBOARD_DATA_DIR: dir, CACHEBOARD_USERS: '' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('cacheboard user', () => {
  it('adds with --password-stdin, lists, and removes; the file holds no password', async () => {
    expect(cli(['add', 'ana', '--role', 'analyst', '--password-stdin'], 'Tr1cky pass\n')).toMatchObject({ code: 0 });
    const file = join(dir, 'users.json');
    expect(readFileSync(file, 'utf8')).not.toContain('Tr1cky pass');
    expect(await verifyPassword('Tr1cky pass', readUsers(file)[0]?.passwordHash ?? '')).toBe(true);
    expect(cli(['list']).out).toBe('ana\tanalyst\n');
    expect(cli(['remove', 'ana']).code).toBe(0);
    expect(cli(['list']).out).toBe('');
  });

  it.each([
    [['add', 'bob', '--role', 'admin', '--password-stdin'], 'pw\n', /--role must be one of analyst, ops/],
    [['add', 'bob', '--role', 'ops', '--password-stdin'], '   \n', /must not be empty or whitespace/],
    [['add', 'bob', '--role', 'ops'], '', /pipe it with --password-stdin/],
    [['remove', 'ghost'], '', /No user named "ghost"/],
  ])('refuses %j with a message that says what to do', (args, input, message) => {
    const r = cli(args, input);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
  });
});
