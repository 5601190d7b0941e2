import { describe, expect, it } from 'vitest';
import { useConsoleOnServer } from './consoleRpcTestKit';

const { admin, rpc } = useConsoleOnServer();

const SECRETS = ['auth-Secret-1', 'setuser-Secret-2', 'requirepass-Secret-3', 'masterauth-Secret-4'];

describe('secrets typed into the console', () => {
  it('are kept out of the history and the audit log, and the commands still run', async () => {
    const auth = await rpc().done('ops', { line: `AUTH someone ${SECRETS[0]}` });
    expect(auth.line).not.toContain(SECRETS[0]);
    expect(auth.replies[0]?.reply).toMatchObject({ t: 'error', v: expect.stringMatching(/^WRONGPASS/) });

    await rpc().confirmed('ops', { line: `ACL SETUSER console-user on >${SECRETS[1]} ~* +@all` });
    expect(await admin().call('ACL', 'WHOAMI')).toBe('default');
    expect(String(await admin().call('ACL', 'LIST'))).toContain('user console-user on');

    await rpc().confirmed('ops', { line: `CONFIG SET requirepass ${SECRETS[2]}` });
    expect(await admin().config('GET', 'requirepass')).toEqual(['requirepass', SECRETS[2]]);
    // The console's connection stays signed in: put the server back.
    await rpc().confirmed('ops', { line: 'CONFIG SET requirepass ""' });
    await rpc().confirmed('ops', { line: `config set masterauth "${SECRETS[3]}"` });

    const history = await rpc().history('ops');
    // The two requirepass lines read the same once redacted: the history keeps one.
    expect(history).toEqual([
      'AUTH (redacted) (redacted)',
      'ACL SETUSER console-user on >(redacted) ~* +@all',
      'CONFIG SET requirepass (redacted)',
      'config set masterauth (redacted)',
    ]);
    expect(history.every((l) => l.includes('(redacted)'))).toBe(true);
    for (const secret of SECRETS) {
      expect(history.join('\n')).not.toContain(secret);
      expect(rpc().auditBytes().includes(secret)).toBe(false);
    }
    // The audit log still says what ran: the command's name.
    const details = rpc()
      .audit()
      .filter((e) => e.action === 'console')
      .map((e) => e.detail);
    expect(details).toEqual(expect.arrayContaining(['ACL SETUSER', 'CONFIG SET']));
  });

  it('refuses a recalled line that holds the mark where its secret goes', async () => {
    const [recalled] = (await rpc().history('ops')).filter((l) => l.startsWith('CONFIG SET requirepass'));
    const e = await rpc().refusal('ops', { line: recalled ?? 'missing', confirm: 'CONFIG SET' });
    expect(e).toMatchObject({ code: 'VALIDATION', field: 'line', message: expect.stringContaining('type the secret in its place') });
    expect(await admin().config('GET', 'requirepass')).toEqual(['requirepass', '']);
  });

  it("keeps each user's history apart, newest last", async () => {
    await rpc().done('analyst', { line: 'GET a' });
    await rpc().done('analyst', { line: 'GET b' });
    expect(await rpc().history('analyst')).toEqual(['GET a', 'GET b']);
    expect(await rpc().history('ops')).not.toContain('GET a');
  });

  it('never shows a secret parameter CONFIG GET reads back, on RESP3 (a map) and RESP2 (pairs)', async () => {
    const secret = 'masterauth-Shown-5';
    await admin().config('SET', 'masterauth', secret);
    try {
      for (const protocol of [3, 2] as const) {
        const one = await rpc().confirmed('ops', { line: 'CONFIG GET masterauth', protocol });
        const all = await rpc().confirmed('ops', { line: 'CONFIG GET *', protocol });
        for (const r of [one, all]) {
          const text = JSON.stringify(r);
          expect(text).not.toContain(secret);
          expect(text).toContain('(secret)');
        }
        // The rest of the reply is as the server sent it.
        expect(JSON.stringify(all)).toContain('maxmemory-policy');
      }
    } finally {
      await admin().config('SET', 'masterauth', '');
    }
  });
});
