import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addUser } from '../server/auth/users';
import { authModeFor } from './serveAuth';
import { readServeEnv } from './serveEnv';

const dir = mkdtempSync(join(tmpdir(), 'cb-serveauth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('authModeFor', () => {
  it('is local on loopback with no users', () => {
    expect(authModeFor(readServeEnv({ CACHEBOARD_DATA_DIR: dir })).kind).toBe('local');
  });

  it.each([
    [{ HOST: '0.0.0.0' }, /HOST=0\.0\.0\.0 is not loopback/],
    [{ CACHEBOARD_AUTH: 'required' }, /CACHEBOARD_AUTH=required/],
  ])('refuses to start with %j and no users, saying how to add one', (env, why) => {
    expect(() => authModeFor(readServeEnv({ CACHEBOARD_DATA_DIR: dir, ...env }))).toThrow(why);
    expect(() => authModeFor(readServeEnv({ CACHEBOARD_DATA_DIR: dir, ...env }))).toThrow(/cacheboard user add NAME --role ops/);
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
