import { Redis } from 'ioredis';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { specFor } from '../../../../testing/profiles';
import { adminClient, useRedis } from '../../../../testing/redis';
import type { LoadEvent } from '../../../../app/schemas/bulk';
import { runJob, snapshotDb, useLoadDirs, writeResp } from './loadTestKit';
import { setKeys } from './appWritesTestKit';
import { midLoadWriter, type MidLoadWriter } from './midLoadTestKit';
import { STAGING_MARKER_KEY, claimStaging, newMarker, parseMarker } from './stagingMarker';

/*
 * A swap load while other clients write: into DB 0 (where applications live),
 * into the staging DB, into the live DB. Each writer lands mid-load
 * (midLoadTestKit.ts), against a real server.
 */
const redis = useRedis();
const dirs = useLoadDirs('cacheboard-writers-');
const SETS = 40_000;
let big: string;

beforeAll(() => {
  const commands: string[][] = [];
  for (let i = 0; i < SETS; i++) commands.push(['SET', `item:${i}`, `v${i}`]);
  big = writeResp(dirs.dir(), 'big.resp', commands);
});

beforeEach(async () => {
  const admin = await adminClient(redis());
  await admin.flushall();
  await admin.config('SET', 'notify-keyspace-events', '');
  await admin.select(8);
  const m = admin.multi();
  for (let i = 0; i < 1_000; i++) m.set(`live:${i}`, `old-${i}`);
  await m.exec();
});

function atLoading(w: MidLoadWriter): (e: LoadEvent) => void {
  return (e) => {
    if (e.kind === 'phase' && e.phase === 'loading') w.start();
  };
}

async function keysOf(db: number, pattern: string): Promise<string[]> {
  const admin = await adminClient(redis());
  await admin.select(db);
  return (await admin.keys(pattern)).sort();
}

async function notifyConfig(): Promise<string> {
  const admin = await adminClient(redis());
  return ((await admin.config('GET', 'notify-keyspace-events')) as string[])[1] ?? '';
}

const load = (o: { allowLiveWrites?: boolean; onEvent?: (e: LoadEvent) => void; spec?: ReturnType<typeof specFor> } = {}) =>
  runJob(
    redis(),
    {
      path: big,
      format: 'resp',
      mode: 'swap',
      targetDb: 8,
      journalDir: dirs.journalDir(),
      ...(o.allowLiveWrites === undefined ? {} : { allowLiveWrites: o.allowLiveWrites }),
      ...(o.spec === undefined ? {} : { spec: o.spec }),
    },
    o.onEvent === undefined ? {} : { onEvent: o.onEvent },
  );

describe('the staging DB', () => {
  it('is the highest empty DB, never DB 0: an application writing into DB 0 during the load keeps its keys', async () => {
    const app = await midLoadWriter(redis(), 0, setKeys('app:order:', 50));
    const { report } = await load({ onEvent: atLoading(app) });
    await app.done();
    expect(report).toMatchObject({ outcome: 'ok', swapped: true, stagingDb: 15, verify: { keys: 'ok', dbsize: SETS } });
    expect(await keysOf(0, '*')).toHaveLength(50);
    expect(await keysOf(0, 'app:order:*')).toHaveLength(50);
    expect(await keysOf(8, 'item:*')).toHaveLength(SETS);
  });

  it('written into by another client mid-load: the load stops and leaves it as it is, saying where and how to empty it', async () => {
    const app = await midLoadWriter(redis(), 15, setKeys('app:order:', 50));
    const admin = await adminClient(redis());
    const liveBefore = await snapshotDb(admin, 8);
    const { report } = await load({ onEvent: atLoading(app) });
    await app.done();
    const command = `redis-cli -h 127.0.0.1 -p ${redis().port} -n 15 FLUSHDB ASYNC`;
    expect(report).toMatchObject({
      outcome: 'failed',
      swapped: false,
      stagingDb: 15,
      stagingLeft: { db: 15, keys: SETS + 50, cleanCommand: command, reason: expect.stringContaining('50 more keys than this load wrote') },
    });
    expect(report.error?.message).toMatch(/holds 50 more keys than the input wrote: another client wrote into it during the load/);
    expect(report.error?.message).toContain(`staging DB 15 was NOT flushed and is left as it is (${SETS + 50} keys)`);
    expect(report.error?.message).toContain(command);
    // Left exactly: the application's keys, the load's keys, and our marker saying "held", so no cleanup flushes it.
    expect(await keysOf(15, 'app:order:*')).toHaveLength(50);
    expect(await keysOf(15, 'item:*')).toHaveLength(SETS);
    await admin.select(15);
    expect(parseMarker(await admin.get(STAGING_MARKER_KEY))).toMatchObject({ phase: 'held', jobId: report.jobId });
    expect(await snapshotDb(admin, 8)).toEqual(liveBefore);

    // The next load neither flushes it nor stages beside the application's keys in it.
    const next = await load();
    expect(next.report).toMatchObject({ outcome: 'ok', stagingDb: 14 });
    expect(next.report.staleCleaned ?? []).toEqual([]);
    expect(await keysOf(15, 'app:order:*')).toHaveLength(50);
  });

  it('is claimed only while empty, in one step (a script), and where scripts are refused by SET then DBSIZE', async () => {
    const admin = await adminClient(redis());
    await admin.select(12);
    await admin.set('app:key', '1');
    const c = admin.duplicate();
    try {
      const marker = newMarker('load_claim1', 8);
      expect(await claimStaging(c, 12, marker, { flushFirst: false, async: true })).toEqual({ claimed: false, keys: 1 });
      expect(await admin.exists(STAGING_MARKER_KEY)).toBe(0);
      expect(await claimStaging(c, 11, marker, { flushFirst: false, async: true })).toMatchObject({ claimed: true });
      await admin.select(11);
      expect(parseMarker(await admin.get(STAGING_MARKER_KEY))).toMatchObject({ jobId: 'load_claim1' });
    } finally {
      c.disconnect();
    }

    await admin.call('ACL', 'SETUSER', 'noscripts', 'on', '>pw', '~*', '&*', '+@all', '-@scripting');
    const limited = new Redis({ host: '127.0.0.1', port: redis().port, username: 'noscripts', password: 'pw', lazyConnect: true });
    try {
      await limited.connect();
      const marker = newMarker('load_claim2', 8);
      expect(await claimStaging(limited, 12, marker, { flushFirst: false, async: true })).toEqual({ claimed: false, keys: 1 });
      await admin.select(12);
      expect(await admin.keys('*')).toEqual(['app:key']);
      expect(await claimStaging(limited, 10, marker, { flushFirst: false, async: true })).toMatchObject({ claimed: true });
    } finally {
      limited.disconnect();
      await admin.call('ACL', 'DELUSER', 'noscripts');
    }
  });
});

describe('writes to the live DB during a swap', () => {
  it('refuse the switch by default, naming --allow-live-writes, counting them; the live DB keeps them', async () => {
    const app = await midLoadWriter(redis(), 8, setKeys('order:', 30));
    const { report } = await load({ onEvent: atLoading(app) });
    await app.done();
    expect(report).toMatchObject({
      outcome: 'failed',
      swapped: false,
      error: {
        code: 'VALIDATION',
        field: 'allowLiveWrites',
        message: expect.stringMatching(
          /^Other clients wrote to the live DB 8 30 times during the load \(first keys: order:0, order:1, .*SWAPDB replaces the whole DB and would discard them\. Refused/,
        ),
      },
      liveWrites: { db: 8, writes: 30, discarded: 0, keys: ['order:0', 'order:1', 'order:2', 'order:3', 'order:4'] },
      keyCounts: { new: SETS, live: 1_030 },
    });
    expect(report.stagingLeft).toBeUndefined();
    expect(await keysOf(8, 'order:*')).toHaveLength(30);
    expect(await keysOf(8, '*')).toHaveLength(1_030);
    expect(await keysOf(15, '*')).toEqual([]);
    expect(await notifyConfig()).toBe('');
  });

  it('with --allow-live-writes: switches, and the report counts the writes it discarded', async () => {
    const app = await midLoadWriter(redis(), 8, setKeys('order:', 30));
    const { report } = await load({ allowLiveWrites: true, onEvent: atLoading(app) });
    await app.done();
    expect(report).toMatchObject({ outcome: 'ok', swapped: true, liveWrites: { db: 8, writes: 30, discarded: 30 } });
    expect(report.warnings).toContainEqual(expect.stringMatching(/wrote to the live DB 8 30 times during the load.*the switch discards those writes/));
    expect(await keysOf(8, 'order:*')).toEqual([]);
    expect(await keysOf(8, '*')).toHaveLength(SETS);
    expect(await notifyConfig()).toBe('');
  });

  it("counts overwrites too (the key count does not move), and puts the server's own notify-keyspace-events back", async () => {
    const admin = await adminClient(redis());
    await admin.config('SET', 'notify-keyspace-events', 'Ex');
    const own = await notifyConfig();
    const app = await midLoadWriter(redis(), 8, setKeys('live:', 20));
    const { report } = await load({ onEvent: atLoading(app) });
    await app.done();
    expect(report).toMatchObject({
      outcome: 'failed',
      error: { field: 'allowLiveWrites' },
      liveWrites: { writes: 20, discarded: 0 },
      keyCounts: { live: 1_000 },
    });
    expect(await notifyConfig()).toBe(own);
  });

  it('none: the load goes through and says zero', async () => {
    const { report } = await load();
    expect(report).toMatchObject({ outcome: 'ok', swapped: true, liveWrites: { db: 8, writes: 0, discarded: 0, keys: [] } });
    expect(await notifyConfig()).toBe('');
  });

  it('where CONFIG is refused, says they could not be counted rather than zero, and still refuses a live DB that gained keys', async () => {
    const admin = await adminClient(redis());
    await admin.call('ACL', 'SETUSER', 'noconfig', 'on', '>pw', '~*', '&*', '+@all', '-config');
    const spec = { ...specFor(redis()), username: 'noconfig', password: 'pw' };
    try {
      const quiet = await load({ spec });
      expect(quiet.report).toMatchObject({
        outcome: 'ok',
        liveWrites: { db: 8, discarded: 0, note: expect.stringMatching(/could not be counted: CONFIG is not available/) },
      });
      expect(quiet.report.liveWrites?.writes).toBeUndefined();

      await admin.select(8);
      await admin.flushdb();
      const m = admin.multi();
      for (let i = 0; i < 1_000; i++) m.set(`live:${i}`, `old-${i}`);
      await m.exec();
      const app = await midLoadWriter(redis(), 8, setKeys('order:', 30));
      const { report } = await load({ spec, onEvent: atLoading(app) });
      await app.done();
      expect(report).toMatchObject({
        outcome: 'failed',
        error: { field: 'allowLiveWrites', message: expect.stringMatching(/^The live DB 8 held 1000 keys when the load began and holds 1030 now/) },
      });
      expect(await keysOf(8, 'order:*')).toHaveLength(30);
    } finally {
      await admin.call('ACL', 'DELUSER', 'noconfig');
    }
  });
});
