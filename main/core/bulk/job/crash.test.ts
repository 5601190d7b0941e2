import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, startRedis, stopAllRedis } from '../../../../testing/redis';
import { runJob, usersMapping, writeUsersCsv } from './loadTestKit';
import { journalFile, restorePendingSaves } from './saveJournal';

const dir = mkdtempSync(join(tmpdir(), 'cacheboard-crash-'));
afterAll(async () => {
  await closeAdmins();
  await stopAllRedis();
  rmSync(dir, { recursive: true, force: true });
});

describe('redis killed mid-load', () => {
  it('fails with "outcome unknown", keeps the save journal, and the next start restores the save config', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const journalDir = join(dir, 'journal');
    const path = writeUsersCsv(dir, 'users.csv', 300_000);
    const first = await startRedis({ dir: dataDir, args: ['--save', '3600 1'] });

    const { report } = await runJob(
      first,
      { path, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir },
      { onEvent: (e) => e.kind === 'progress' && e.replies > 0 && first.kill('SIGKILL') },
    );
    expect(report.outcome).toBe('failed');
    expect(report.error).toMatchObject({ code: 'DISCONNECTED', message: expect.stringContaining('outcome of in-flight commands unknown') });
    expect(report.swapped).toBe(false);
    expect(report.saveConfig).toMatchObject({ original: '3600 1', restored: false });
    const journal = journalFile(journalDir, '127.0.0.1', first.port);
    expect(existsSync(journal)).toBe(true);
    // notify-keyspace-events, turned on to count writes to the live DB, is journaled the same way.
    const notifyJournal = journalFile(journalDir, '127.0.0.1', first.port, 'notify-keyspace-events');
    const notify = JSON.parse(readFileSync(notifyJournal, 'utf8')) as { original: string; applied: string };
    expect(notify).toMatchObject({ original: '', applied: expect.stringContaining('E') });

    // The crash as the next start sees it: the server still running with saves off (CONFIG SET
    // is not persisted, so only a server that kept running has ""), and the journal on disk.
    await first.stop();
    const second = await startRedis({ port: first.port, dir: dataDir, args: ['--save', '', '--notify-keyspace-events', notify.applied] });
    const results = await restorePendingSaves(journalDir, async (host, port) => {
      const r = new Redis({ host, port, lazyConnect: true, retryStrategy: () => null });
      await r.connect();
      return r;
    });
    expect(results).toMatchObject([
      { param: 'notify-keyspace-events', action: 'restored', original: '' },
      { action: 'restored', original: '3600 1' },
    ]);
    const admin = await adminClient(second);
    expect(await admin.config('GET', 'save')).toEqual(['save', '3600 1']);
    expect(await admin.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', '']);
    expect(existsSync(journal)).toBe(false);
    expect(existsSync(notifyJournal)).toBe(false);
  });
});
