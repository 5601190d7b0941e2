import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInfo } from '../info/parseInfo';
import { startReplicaSet } from '../../../testing/replication';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { progressPast, reportOf, scratchKeysIn, trialOn, type TrialInput } from './trialTestKit';

const redis = useRedis();
let admin: Redis;
/** Keys that are somebody's data, in db 0 and db 2: a trial must never touch them. */
const OWN = ['user:1', 'user:2', 'cacheboard:trialish', 'session:9'];

async function ownKeys(db: number): Promise<string[]> {
  await admin.select(db);
  return (await admin.keys('*')).filter((k) => !k.startsWith('cacheboard:trial:')).sort();
}

beforeAll(async () => {
  admin = await adminClient(redis());
  for (const db of [0, 2]) {
    await admin.select(db);
    for (const k of OWN) await admin.set(k, `mine:${k}`);
  }
});
afterAll(closeAdmins);

describe('trial rules', () => {
  it('refuses a replica, naming its master, before writing anything', async () => {
    const set = await startReplicaSet({ replicas: 1 });
    try {
      const r = await trialOn(set.replicas[0]!, { trial: 'pipeline', n: 10 });
      expect(r.final).toMatchObject({ kind: 'failed', error: { code: 'READ_ONLY', field: 'profileId' } });
      expect(r.final.kind === 'failed' && r.final.error.message).toMatch(new RegExp(`replica .*master 127\\.0\\.0\\.1:${set.master.port}`));
      expect(r.events.some((e) => e.kind === 'started')).toBe(false);
    } finally {
      await set.stop();
    }
  });

  it('refuses a DB that holds keys of its own unless confirmed, and then leaves those keys as they were', async () => {
    // Multiplex over db 1 and 2: db 1 is empty, db 2 is somebody's.
    const input = { trial: 'multiplex', db: 1, dbs: 2, n: 100 } as const;
    const refused = await trialOn(redis(), input);
    expect(refused.final).toMatchObject({ kind: 'failed', error: { code: 'VALIDATION', field: 'confirmNonEmpty' } });
    expect(refused.final.kind === 'failed' && refused.final.error.message).toMatch(/db 2 .* holds keys of its own \(DBSIZE 4\)/);

    const report = reportOf(await trialOn(redis(), { ...input, confirmNonEmpty: true }));
    expect(report.dbs).toEqual([1, 2]);
    expect(await ownKeys(2)).toEqual([...OWN].sort());
    expect(await admin.mget(OWN)).toEqual(OWN.map((k) => `mine:${k}`));
    expect(await scratchKeysIn(admin, 1)).toEqual([]);
    expect(await scratchKeysIn(admin, 2)).toEqual([]);
  });

  it("counts a DB holding only a dead run's scratch keys as empty, and sweeps them (audience scratch excepted)", async () => {
    await admin.select(3);
    // A run killed before its cleanup (no connection of it is left), and an audience trial's register.
    await admin.set('cacheboard:trial:other_run:key:1', 'x');
    await admin.set('cacheboard:trial:audience:r0123456789ab:1', 'x', 'PX', 60_000);
    try {
      const report = reportOf(await trialOn(redis(), { trial: 'pipeline', db: 3, n: 10, sweep: false }));
      expect(await scratchKeysIn(admin, 3)).toEqual(['cacheboard:trial:audience:r0123456789ab:1']);
      expect(report.warnings).toContain('Removed 1 scratch keys an earlier trial left in DB 3 (it was stopped before its cleanup)');
    } finally {
      await admin.flushdb();
    }
  });

  it('refuses to start while another process runs a trial on the server, and starts once it ended', async () => {
    // What another Cacheboard's (or a CLI's) trial leaves in CLIENT LIST: connections named cacheboard:trial:<run>.
    const other = new Redis({ host: redis().host, port: redis().port, connectionName: 'cacheboard:trial:cli4242' });
    await other.ping();
    const refused = await trialOn(redis(), { trial: 'pipeline', db: 4, n: 10, sweep: false });
    expect(refused.final).toMatchObject({ kind: 'failed', error: { code: 'CONFLICT' } });
    expect(refused.final.kind === 'failed' && refused.final.error.message).toMatch(
      /Trial cli4242 is already running on 127\.0\.0\.1:\d+ \(client 127\.0\.0\.1:\d+/,
    );
    expect(refused.events.some((e) => e.kind === 'started')).toBe(false);
    other.disconnect();
    await expect.poll(async () => String(await admin.client('LIST')).includes('name=cacheboard:trial:cli4242')).toBe(false);
    reportOf(await trialOn(redis(), { trial: 'pipeline', db: 4, n: 10, sweep: false }));
  });

  it("runs for a user who may not run CLIENT LIST (only this process's trials are then known)", async () => {
    await admin.call('ACL', 'SETUSER', 'nolist', 'on', '>pw', '~*', '+@all', '-client|list');
    reportOf(await trialOn(redis(), { trial: 'pipeline', db: 4, n: 10, sweep: false }, { spec: { username: 'nolist', password: 'pw' } }));
  });

  it('names the option that chose a DB the server does not have', async () => {
    const multiplex = await trialOn(redis(), { trial: 'multiplex', db: 14, dbs: 3, n: 10 });
    expect(multiplex.final).toMatchObject({ kind: 'failed', error: { code: 'VALIDATION', field: 'dbs' } });
    const pipeline = await trialOn(redis(), { trial: 'pipeline', db: 16, n: 10 });
    expect(pipeline.final).toMatchObject({ kind: 'failed', error: { code: 'VALIDATION', field: 'db' } });
  });

  it.each<TrialInput>([
    { trial: 'pipeline', n: 1_000_000, confirmNonEmpty: true },
    { trial: 'multiplex', n: 1_000_000, dbs: 3, confirmNonEmpty: true },
    { trial: 'load', n: 10_000_000, clients: 20, confirmNonEmpty: true },
  ])("a cancelled $trial trial removes every scratch key and keeps the DB's own keys", async (input) => {
    const abort = new AbortController();
    const past = progressPast(2_000);
    const running = trialOn(redis(), input, { signal: abort.signal, onEvent: past.onEvent });
    await past.reached;
    abort.abort();
    const report = reportOf(await running, 'cancelled');
    expect(report.variants).toEqual([]);
    for (const db of report.dbs) expect(await scratchKeysIn(admin, db)).toEqual([]);
    expect(await ownKeys(0)).toEqual([...OWN].sort());
    expect(await ownKeys(2)).toEqual([...OWN].sort());
  });

  it('a run the server stops with OOM fails with its reply and still removes what it wrote', async () => {
    const used = Number(parseInfo(await admin.info('memory'))['memory']?.['used_memory']);
    await admin.config('SET', 'maxmemory', String(used + 2 * 1024 * 1024));
    try {
      const r = await trialOn(redis(), { trial: 'pipeline', db: 4, n: 200_000, batch: 500, sweep: false });
      expect(r.final).toMatchObject({ kind: 'failed', error: { code: 'REDIS' } });
      expect(r.final.kind === 'failed' && r.final.error.message).toMatch(/replied: OOM command not allowed/);
      expect(r.events.some((e) => e.kind === 'progress' && e.done > 0)).toBe(true);
      expect(await scratchKeysIn(admin, 4)).toEqual([]);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
  });
});
