import { describe, expect, it } from 'vitest';
import { clientsNamed, eventually } from '../../../../testing/redis';
import { CONSOLE_IDLE_MS, CONSOLES_PER_USER } from './consoleLinks';
import { useConsoleCore } from '../consoleTestKit';

const { admin, core } = useConsoleCore({
  // No HELLO, as on a server before 6.0 (ACL cannot take it away: HELLO runs before AUTH): the console falls back to RESP2.
  server: { args: ['--rename-command', 'HELLO', ''] },
});

const ours = async (profileId = 'p') => (await clientsNamed(admin(), `cacheboard:console:${profileId}`)).length;

describe("the console's connections", () => {
  it(`keeps ${CONSOLES_PER_USER} consoles a user, closing the least recently used for a new one`, async () => {
    for (let i = 1; i <= CONSOLES_PER_USER; i++) await core().done('ops', { line: 'PING', consoleId: `cap-console-${i}` });
    expect(await ours()).toBe(CONSOLES_PER_USER);
    // Console 1 is used again, so console 2 is now the least recently used.
    await core().done('ops', { line: 'CLIENT SETNAME first-console', consoleId: 'cap-console-1' });
    await core().done('ops', { line: 'PING', consoleId: 'cap-console-new' });
    expect(await eventually(async () => (await ours()) === CONSOLES_PER_USER - 1)).toBe(true);
    expect(await clientsNamed(admin(), 'first-console')).toHaveLength(1);
    // Another user's consoles are counted apart.
    await core().done('analyst', { line: 'GET x', consoleId: 'cap-console-1' });
    expect(await ours()).toBe(CONSOLES_PER_USER);
  });

  it('closes connections left idle, and opens a new one when the console comes back', async () => {
    core().services.links.sweep(Date.now() + CONSOLE_IDLE_MS + 1);
    expect(await eventually(async () => (await ours()) === 0 && (await clientsNamed(admin(), 'first-console')).length === 0)).toBe(true);
    await core().done('ops', { line: 'PING', consoleId: 'cap-console-1' });
    expect(await ours()).toBe(1);
  });

  it('says protocol 2 when the server will not speak HELLO', async () => {
    const r = await core().done('ops', { line: 'HGETALL none', protocol: 3 });
    expect(r.protocol).toBe(2);
    expect(r.replies[0]?.reply).toEqual({ t: 'array', items: [], total: 0 });
  });

  it('gives the server its own catalog, from COMMAND DOCS and COMMAND INFO', async () => {
    const catalog = await core().catalog('analyst');
    expect(catalog.source).toBe('docs');
    expect(catalog.version).toMatch(/^\d+\.\d+/);
    const set = catalog.commands.find((c) => c.name === 'SET');
    expect(set).toMatchObject({ group: 'string', categories: expect.arrayContaining(['@write']), summary: expect.any(String) });
  });

  it('closes every connection on shutdown', async () => {
    await core().done('ops', { line: 'PING', consoleId: 'last-console' });
    expect(await ours()).toBeGreaterThan(0);
    await core().services.links.closeAll();
    expect(await eventually(async () => (await ours()) === 0)).toBe(true);
    await expect(core().refusal('ops', { line: 'PING' })).resolves.toMatchObject({ code: 'CANCELLED', message: expect.stringContaining('shutting down') });
  });
});
