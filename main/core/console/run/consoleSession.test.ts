import { describe, expect, it } from 'vitest';
import { clientsNamed } from '../../../../testing/redis';
import { onlyReply, useConsoleCore, type ConsoleCore } from '../consoleTestKit';

const { redis, admin, core } = useConsoleCore();

const textOf = (r: Awaited<ReturnType<ConsoleCore['done']>>): string => {
  const reply = onlyReply(r);
  return 'v' in reply ? String(reply.v) : '';
};

describe('a console session', () => {
  it('keeps the DB a SELECT chose, on its own connection only', async () => {
    const selected = await core().done('ops', { line: 'SELECT 3' });
    expect(selected.db).toBe(3);
    // The page sends the DB it was given back; the same connection is still on it.
    await core().done('ops', { line: 'SET in-three 1', db: selected.db });
    expect(textOf(await core().done('ops', { line: 'CLIENT INFO', db: 3 }))).toMatch(/ db=3 /);
    await admin().select(3);
    expect(await admin().exists('in-three')).toBe(1);
    await admin().select(0);
    expect(await admin().exists('in-three')).toBe(0);
    // Another console starts on the profile's DB, on a connection of its own.
    const other = await core().done('ops', { line: 'CLIENT INFO', consoleId: 'console-2' });
    expect(other.db).toBe(0);
    expect(textOf(other)).toMatch(/ db=0 /);
    expect(await clientsNamed(admin(), 'cacheboard:console:p')).toHaveLength(2);
  });

  it('keeps what CLIENT SETNAME named, and the page can move it to another DB', async () => {
    await core().done('ops', { line: 'CLIENT SETNAME my-console', consoleId: 'console-3' });
    expect(textOf(await core().done('ops', { line: 'CLIENT GETNAME', consoleId: 'console-3' }))).toBe('my-console');
    const moved = await core().done('ops', { line: 'CLIENT INFO', consoleId: 'console-3', db: 5 });
    expect(moved.db).toBe(5);
    expect(textOf(moved)).toMatch(/ name=my-console .* db=5 /);
  });

  it('says a failed SELECT leaves the DB where it was', async () => {
    const r = await core().done('ops', { line: 'SELECT 99', consoleId: 'console-3', db: 5 });
    expect(onlyReply(r)).toMatchObject({ t: 'error' });
    expect(r.db).toBe(5);
  });

  it('lists the standalone server as the one target', async () => {
    expect(await core().targets('analyst')).toEqual({
      topology: 'standalone',
      nodes: [{ address: `${redis().host}:${redis().port}`, role: 'master' }],
    });
  });
});
