import { beforeAll, describe, expect, it } from 'vitest';
import { writeUsersCsv } from '../../core/bulk/job/loadTestKit';
import { useLiveServer } from '../liveServerTestKit';
import { expectNothingLeft, spawnLoad } from './faultTestKit';

/*
 * Fault case: two `cacheboard load` processes started together into the same DB.
 * targetLock.ts names each load's connection before it reads CLIENT LIST, so at most
 * one proceeds; the other is refused with CONFLICT and touches nothing.
 */
const { redis, dir } = useLiveServer('cb-fault-race-');
let csv: string;
beforeAll(() => {
  csv = writeUsersCsv(dir, 'users.csv', 300_000);
});

// Real processes on a shared machine: each case gets a minute.
describe('two processes racing for one target', { timeout: 60_000 }, () => {
  it('one wins at most; a loser is refused with CONFLICT and leaves nothing behind', async () => {
    const a = spawnLoad(redis(), csv, { dir });
    const b = spawnLoad(redis(), csv, { dir, dataDir: a.dataDir });
    const codes = await Promise.all([a.exited, b.exited]);
    const reports = [a, b].map((l) => JSON.parse(l.out()) as { outcome: string; error?: { code: string; message: string } });
    const winners = reports.filter((r) => r.outcome === 'ok');
    // Both starting in the same instant may both refuse (announce, then check), never both proceed.
    expect(winners.length).toBeLessThanOrEqual(1);
    for (const r of reports.filter((x) => x.outcome !== 'ok')) {
      expect(r.error?.code).toBe('CONFLICT');
      expect(r.error?.message).toContain('is already loading db');
    }
    expect(codes.sort()).toEqual(winners.length === 1 ? [0, 1] : [1, 1]);
    await expectNothingLeft(redis(), a.dataDir, winners.length === 1 ? { kind: 'new', keys: 300_000 } : { kind: 'old' });
  });
});
