import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../testing/redis';
import { watchUsers, type UserDirectory } from './userDirectory';
import { addUser, removeUser } from './users';

const dirs: string[] = [];
const open: UserDirectory[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function usersFile(): Promise<string> {
  const d = mkdtempSync(join(tmpdir(), 'cb-userdir-'));
  dirs.push(d);
  const f = join(d, 'users.json');
  await addUser(f, 'ana', 'analyst', 'pw-ana');
  await addUser(f, 'olga', 'ops', 'pw-olga');
  return f;
}

function follow(f: string, o: Parameters<typeof watchUsers>[1] = {}) {
  const d = watchUsers(f, o);
  open.push(d);
  let changes = 0;
  d.onChange(() => changes++);
  return { d, changes: () => changes };
}

describe('watchUsers', () => {
  it('reports a rewrite of the file (a new inode) through the directory watch, without being asked', async () => {
    const f = await usersFile();
    // Never stat'ed on use within the test: only the watch can notice.
    const { d, changes } = follow(f, { recheckMs: 3_600_000 });
    const olga = d.find('olga');
    removeUser(f, 'olga');
    expect(await eventually(() => changes() > 0, 3000)).toBe(true);
    expect(d.find('olga')).toBeUndefined();
    expect(olga?.stamp).toMatch(/^[\w-]{43}$/);
  });

  it('sees a change on use even before any watch event: removal, a new role, a new password (even the same one)', async () => {
    const f = await usersFile();
    const { d } = follow(f, { recheckMs: 0 });
    const before = d.find('ana')?.stamp;
    await addUser(f, 'ana', 'analyst', 'pw-ana'); // same role, same password, new salt
    const samePassword = d.find('ana')?.stamp; // synchronously after the write: no event delivered yet
    expect(samePassword).not.toBe(before);
    await addUser(f, 'ana', 'ops', 'pw-ana');
    expect(d.find('ana')?.role).toBe('ops');
    expect(d.find('ana')?.stamp).not.toBe(samePassword);
    removeUser(f, 'ana');
    expect(d.find('ana')).toBeUndefined();
    expect(d.find('olga')?.role).toBe('ops');
  });

  it('names nobody while the file is broken or gone, says so in the log, and recovers', async () => {
    const f = await usersFile();
    const logged: string[] = [];
    const { d } = follow(f, { recheckMs: 0, log: (m) => logged.push(m) });
    writeFileSync(f, '{"version":1,"users":[');
    expect(d.find('olga')).toBeUndefined();
    expect(logged.join('\n')).toContain(`${f} is not valid JSON`);
    expect(logged.join('\n')).toContain('nobody can sign in until it is fixed');
    rmSync(f);
    expect(d.find('olga')).toBeUndefined();
    await addUser(f, 'olga', 'ops', 'pw');
    expect(d.find('olga')?.role).toBe('ops');
  });
});
