import { describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { useConsoleOnServer } from './consoleRpcTestKit';

const { redis, admin, rpc } = useConsoleOnServer({
  profiles: (redis) => [
    { id: 'p', source: 'config', spec: specFor(redis) },
    { id: 'embedded', source: 'embedded', spec: specFor(redis, { name: 'Local (embedded)' }) },
  ],
});

describe('the console guard', () => {
  it('holds FLUSHALL until it is typed back, then runs it', async () => {
    await admin().set('keep', '1');
    const held = await rpc().run('ops', { line: 'flushall' });
    expect(held).toMatchObject({ status: 'held', command: 'FLUSHALL', reason: 'dangerous', confirmWith: 'FLUSHALL' });
    expect(await admin().exists('keep')).toBe(1);
    // A wrong confirmation holds it still.
    expect(await rpc().run('ops', { line: 'flushall', confirm: 'FLUSHDB' })).toMatchObject({ status: 'held' });
    expect(await admin().exists('keep')).toBe(1);
    const done = await rpc().run('ops', { line: 'flushall', confirm: 'flushall' });
    expect(done).toMatchObject({ status: 'done', command: 'FLUSHALL', replies: [{ reply: { t: 'simple', v: 'OK' } }] });
    expect(await admin().dbsize()).toBe(0);
    const entries = rpc()
      .audit()
      .filter((e) => e.action === 'console' && e.outcome !== 'started' && e.detail?.startsWith('FLUSHALL'));
    expect(entries.map((e) => e.outcome)).toEqual(['refused', 'refused', 'ok']);
    expect(entries[2]?.target).toBe(`profile p ${redis().host}:${redis().port} db 0`);
  });

  it('holds KEYS on a DB of more than 10,000 keys, not on a small one', async () => {
    await admin().select(2);
    expect(await rpc().done('ops', { line: 'KEYS *', db: 2 })).toMatchObject({ replies: [{ reply: { t: 'array', total: 0 } }] });
    const p = admin().pipeline();
    for (let i = 0; i < 10_001; i++) p.set(`k:${i}`, '1');
    await p.exec();
    const held = await rpc().run('ops', { line: 'KEYS *', db: 2 });
    expect(held).toMatchObject({ status: 'held', reason: 'keys', confirmWith: 'KEYS' });
    await admin().select(0);
  });

  it('audits what ops run that is not @read (name and key, never the value), and not their reads', async () => {
    await rpc().done('ops', { line: 'SET "user:\\x01" top-secret-value' });
    await rpc().done('ops', { line: 'GET user:1' });
    const mine = rpc()
      .audit()
      .filter((e) => e.action === 'console' && e.outcome === 'ok');
    expect(mine.at(-1)).toMatchObject({ user: 'ops-user', detail: 'SET "user:\\x01"' });
    expect(mine.some((e) => e.detail?.startsWith('GET'))).toBe(false);
    expect(rpc().auditBytes().includes('top-secret-value')).toBe(false);
  });

  it('refuses a write on the read-only embedded profile, saying why, and sends nothing', async () => {
    const e = await rpc().refusal('ops', { profileId: 'embedded', line: 'SET ro 1' });
    expect(e).toMatchObject({ code: 'READ_ONLY', message: expect.stringContaining('SET writes') });
    expect(await admin().exists('ro')).toBe(0);
    // Reads still run there.
    await expect(rpc().done('ops', { profileId: 'embedded', line: 'EXISTS ro' })).resolves.toMatchObject({ replies: [{ reply: { v: '0' } }] });
  });

  it('points SUBSCRIBE and MONITOR to their pages', async () => {
    await expect(rpc().refusal('ops', { line: 'SUBSCRIBE news' })).resolves.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('Pub/Sub page'),
    });
    await expect(rpc().refusal('ops', { line: 'monitor' })).resolves.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('Monitor page') });
  });
});
