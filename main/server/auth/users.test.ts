import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from './passwords';
import { addUser, readUsers, removeUser } from './users';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const fileIn = () => {
  const d = mkdtempSync(join(tmpdir(), 'cb-users-'));
  dirs.push(d);
  return join(d, 'users.json');
};

describe('users file', () => {
  it('adds, updates and removes users, storing only scrypt hashes in a 0600 file', async () => {
    const f = fileIn();
    expect(readUsers(f)).toEqual([]);
    expect(await addUser(f, 'ana', 'analyst', 'pw-one')).toBe(true);
    expect(await addUser(f, 'ops1', 'ops', 'pw-two')).toBe(true);
    expect(readFileSync(f, 'utf8')).not.toContain('pw-one');
    expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(await addUser(f, 'ana', 'ops', 'pw-three')).toBe(false);
    const ana = readUsers(f).find((u) => u.name === 'ana');
    expect(ana?.role).toBe('ops');
    expect(await verifyPassword('pw-three', ana?.passwordHash ?? '')).toBe(true);
    removeUser(f, 'ana');
    expect(readUsers(f).map((u) => u.name)).toEqual(['ops1']);
  });

  it('names the field of a bad name or password, and an unknown user', async () => {
    const f = fileIn();
    await expect(addUser(f, 'bad name', 'ops', 'pw')).rejects.toMatchObject({ field: 'name' });
    await expect(addUser(f, 'ok', 'ops', '   ')).rejects.toMatchObject({ field: 'password' });
    expect(() => removeUser(f, 'ghost')).toThrow(/No user named "ghost"/);
  });

  it('says which file is broken', () => {
    const f = fileIn();
    writeFileSync(f, '{"version":1,"users":[{"name":"x"}]}');
    expect(() => readUsers(f)).toThrow(f);
  });
});
