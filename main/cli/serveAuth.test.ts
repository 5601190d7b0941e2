import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../core/redisProcess/freePort';
import { addUser } from '../server/auth/users';
import { authModeFor } from './serveAuth';
import { parseServeArgs } from './serveArgs';
import { readServeEnv } from './serveEnv';

const dir = mkdtempSync(join(tmpdir(), 'cb-serveauth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('authModeFor', () => {
  it('is local on loopback with no users', () => {
    expect(authModeFor(readServeEnv({ CACHEBOARD_DATA_DIR: dir })).kind).toBe('local');
  });

  it.each([
    [{ HOST: '0.0.0.0' }, [], /HOST=0\.0\.0\.0 is not loopback/],
    [{ CACHEBOARD_AUTH: 'required' }, [], /CACHEBOARD_AUTH=required/],
    [{ CACHEBOARD_AUTH: 'auto' }, ['--auth', 'required'], /\(--auth required\)/],
  ])('refuses to start with %j %j and no users, saying how to add one', (env, argv, why) => {
    const cfg = () => readServeEnv({ CACHEBOARD_DATA_DIR: dir, ...env }, parseServeArgs(argv));
    expect(() => authModeFor(cfg())).toThrow(why);
    expect(() => authModeFor(cfg())).toThrow(/cacheboard user add NAME --role ops/);
  });

  it('--auth auto keeps local mode on loopback even when CACHEBOARD_AUTH says required', () => {
    expect(authModeFor(readServeEnv({ CACHEBOARD_DATA_DIR: dir, CACHEBOARD_AUTH: 'required' }, parseServeArgs(['--auth', 'auto']))).kind).toBe('local');
  });

  it('cacheboard serve --auth required refuses to start without users, whatever CACHEBOARD_AUTH says', async () => {
    // A free port: were the flag ignored, the server would start in local mode instead (and the test time out).
    const port = String(await freePort());
    const r = spawnSync(process.execPath, ['bin/cacheboard.js', 'serve', '--auth', 'required'], {
      env: { ...process.env, CACHEBOARD_DATA_DIR: mkdtempSync(join(dir, 'flag-')), CACHEBOARD_AUTH: 'auto', CACHEBOARD_USERS: '', REDIS_URL: '', CACHEBOARD_CONFIG: '', PORT: port },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Sign-in is required (--auth required)');
  });

  it('is on as soon as a user exists, even on loopback; Secure cookies behind an https public URL', async () => {
    const usersFile = join(dir, 'u.json');
    await addUser(usersFile, 'ana', 'analyst', 'pw');
    const mode = authModeFor(readServeEnv({ CACHEBOARD_DATA_DIR: dir, CACHEBOARD_USERS: usersFile, CACHEBOARD_PUBLIC_URL: 'https://cb.example' }));
    expect(mode.kind).toBe('users');
    if (mode.kind === 'users') {
      expect(mode.secure).toBe(true);
      expect(mode.users().map((u) => u.name)).toEqual(['ana']);
    }
  });
});
