import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { resumeAutoSaves, suspendAutoSaves } from './autoSaves';
import { journalFile, restorePendingSaves, writeJournal } from './saveJournal';

const redis = useRedis({ args: ['--save', '3600 1'] });
afterAll(closeAdmins);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cacheboard-journal-'));
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  const admin = await adminClient(redis());
  await admin.config('SET', 'save', '3600 1');
});

async function saveOf(r: Redis): Promise<string> {
  const reply = (await r.config('GET', 'save')) as string[];
  return reply[1] ?? '';
}

describe('automatic saves during a load', () => {
  it('journals the original before turning saves off, and removes the journal once restored', async () => {
    const admin = await adminClient(redis());
    const where = { journalDir: dir, host: '127.0.0.1', port: redis().port, jobId: 'load_j1' };
    const s = await suspendAutoSaves(admin, where);
    expect(s).toMatchObject({ original: '3600 1', holding: true });
    expect(await saveOf(admin)).toBe('');
    const file = journalFile(dir, '127.0.0.1', redis().port);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ host: '127.0.0.1', port: redis().port, original: '3600 1', jobId: 'load_j1' });

    expect(await resumeAutoSaves(s, [() => Promise.resolve(admin)])).toEqual({ original: '3600 1', restored: true });
    expect(await saveOf(admin)).toBe('3600 1');
    expect(existsSync(file)).toBe(false);
  });

  it('with two loads on one server, the last one out turns saves back on', async () => {
    const admin = await adminClient(redis());
    const where = { journalDir: dir, host: '127.0.0.1', port: redis().port };
    const a = await suspendAutoSaves(admin, { ...where, jobId: 'load_a1' });
    const b = await suspendAutoSaves(admin, { ...where, jobId: 'load_b1' });
    expect(b.original).toBe('3600 1');
    const first = await resumeAutoSaves(a, [() => Promise.resolve(admin)]);
    expect(first).toMatchObject({ restored: false, note: expect.stringContaining('load_b1') });
    expect(await saveOf(admin)).toBe('');
    await resumeAutoSaves(b, [() => Promise.resolve(admin)]);
    expect(await saveOf(admin)).toBe('3600 1');
  });

  it('goes on without touching saves where CONFIG is denied by ACL, and says so', async () => {
    const admin = await adminClient(redis());
    await admin.call('ACL', 'SETUSER', 'loader', 'on', '>pw', '~*', '&*', '+@all', '-config');
    const limited = new Redis({ host: '127.0.0.1', port: redis().port, username: 'loader', password: 'pw', lazyConnect: true });
    await limited.connect();
    try {
      const s = await suspendAutoSaves(limited, { journalDir: dir, host: '127.0.0.1', port: redis().port, jobId: 'load_acl' });
      expect(s.holding).toBe(false);
      expect(s.warning).toMatch(/CONFIG is not available \(NOPERM/);
      expect(await saveOf(admin)).toBe('3600 1');
      expect(existsSync(journalFile(dir, '127.0.0.1', redis().port))).toBe(false);
    } finally {
      limited.disconnect();
      await admin.call('ACL', 'DELUSER', 'loader');
    }
  });
});

describe('restorePendingSaves', () => {
  const connect = async (host: string, port: number): Promise<Redis> => {
    const r = new Redis({ host, port, lazyConnect: true, retryStrategy: () => null });
    r.on('error', () => undefined); // the refused connect rejects connect() too
    await r.connect();
    return r;
  };

  it('restores a save config left off by a load that never finished, and removes the journal', async () => {
    const admin = await adminClient(redis());
    await admin.config('SET', 'save', '');
    writeJournal(dir, { host: '127.0.0.1', port: redis().port, original: '3600 1', jobId: 'load_gone', at: Date.now() });
    const results = await restorePendingSaves(dir, connect);
    expect(results).toMatchObject([{ action: 'restored', original: '3600 1', message: expect.stringContaining('load_gone') }]);
    expect(await saveOf(admin)).toBe('3600 1');
    expect(existsSync(journalFile(dir, '127.0.0.1', redis().port))).toBe(false);
  });

  it('leaves saves alone while the load that journaled them still has a connection open', async () => {
    const admin = await adminClient(redis());
    await admin.config('SET', 'save', '');
    const loader = await adminClient(redis());
    await loader.client('SETNAME', 'cacheboard:bulk:load_busy:db0');
    writeJournal(dir, { host: '127.0.0.1', port: redis().port, original: '3600 1', jobId: 'load_busy', at: Date.now() });
    expect(await restorePendingSaves(dir, connect)).toMatchObject([{ action: 'in-use' }]);
    expect(await saveOf(admin)).toBe('');
    await loader.quit();
  });

  it('drops the journal when the server has its original back (it restarted from its config)', async () => {
    writeJournal(dir, { host: '127.0.0.1', port: redis().port, original: '3600 1', jobId: 'load_old', at: Date.now() });
    expect(await restorePendingSaves(dir, connect)).toMatchObject([{ action: 'already-restored' }]);
    expect(existsSync(journalFile(dir, '127.0.0.1', redis().port))).toBe(false);
  });

  it('keeps the journal when the server cannot be reached, and skips files that are not journals', async () => {
    writeJournal(dir, { host: '127.0.0.1', port: 1, original: '900 1', jobId: 'load_x', at: Date.now() });
    writeFileSync(join(dir, 'save-broken_2.json'), '{ torn');
    const results = await restorePendingSaves(dir, connect);
    expect(results.map((r) => r.action).sort()).toEqual(['failed', 'unreadable']);
    expect(existsSync(journalFile(dir, '127.0.0.1', 1))).toBe(true);
  });
});
