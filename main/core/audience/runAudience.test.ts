import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { readmeAclLine } from '../../../testing/readmeAcl';
import { DEFAULT_LAYOUT, demoInto, demoRecords, hasInterest as has, scratchLeft, trialOf, type TrialOf } from './audienceTestKit';
import type { DemoUser } from './demo/tvAudience';
import { audienceTrialName } from './runAudience';

const SHAPE = { users: 3_000, days: 10, seed: 7, start: '2024-01-01' };
const { users: USERS, days: DAYS, expected } = demoRecords(SHAPE);

const redis = useRedis();
let admin: Redis;
beforeAll(async () => {
  admin = await adminClient(redis());
  const { final } = await demoInto(redis(), SHAPE);
  expect(final.kind).toBe('done');
});
afterAll(closeAdmins);

function report(t: TrialOf) {
  if (t.final.kind !== 'done') throw new Error(`trial ended ${t.final.kind}: ${JSON.stringify(t.final)}`);
  return t.final.report;
}

describe('every strategy', () => {
  const cases: [string, (u: DemoUser) => boolean][] = [
    [
      'gender=f AND age=25-34 AND (region=NE OR region=MA) AND NOT interest:golf',
      (u) => u.attrs.gender === 'f' && u.attrs.age === '25-34' && (u.attrs.region === 'NE' || u.attrs.region === 'MA') && !has(u, 'golf'),
    ],
    ['region=SA OR region=PAC OR NOT interest:news', (u) => u.attrs.region === 'SA' || u.attrs.region === 'PAC' || !has(u, 'news')],
    ['NOT gender=f', (u) => u.attrs.gender !== 'f'],
    ['interest=golf', (u) => has(u, 'golf')],
    [
      '(age=18-24 OR age=65+) AND NOT (interest:sports OR interest:news)',
      (u) => (u.attrs.age === '18-24' || u.attrs.age === '65+') && !has(u, 'sports') && !has(u, 'news'),
    ],
    [
      'gender=m AND NOT interest=movies AND NOT interest=tennis AND income=50-100k',
      (u) => u.attrs.gender === 'm' && !has(u, 'movies') && !has(u, 'tennis') && u.attrs.income === '50-100k',
    ],
  ];

  it.each(cases)('answers %s exactly as the records say', async (where, match) => {
    const r = report(await trialOf(redis(), { where }));
    const want = expected(match);
    expect(want.size).toBeGreaterThan(0);
    expect(r.strategies.map((s) => [s.name, s.skipped])).toEqual([
      ['bitmap-lua', undefined],
      ['bitmap-pipeline', undefined],
      ['sets', undefined],
      ['zunionstore', undefined],
    ]);
    for (const s of r.strategies) expect({ name: s.name, size: s.audienceSize, days: s.days }).toEqual({ name: s.name, size: want.size, days: want.days });
    expect(r.countsMatch).toBe(true);
    expect(r.mismatches).toEqual([]);
    expect(await scratchLeft(admin)).toEqual([]);
  });

  it('measures every strategy: K runs, percentiles in order, server time, commands and bytes', async () => {
    const r = report(await trialOf(redis(), { where: 'gender=f AND region=NE', trials: 5, warmup: 2 }));
    for (const s of r.strategies) {
      expect(s.runs).toBe(5);
      expect(s.minMs).toBeGreaterThan(0);
      expect(s.minMs).toBeLessThanOrEqual(s.p50Ms);
      expect(s.p50Ms).toBeLessThanOrEqual(s.p95Ms);
      expect(s.serverMs).toBeGreaterThan(0);
      expect(s.bytesOut).toBeGreaterThan(0);
      expect(s.bytesIn).toBeGreaterThan(0);
    }
    const byName = Object.fromEntries(r.strategies.map((s) => [s.name, s]));
    // The script is one command a run; the pipeline sends BITOP and BITCOUNT per day.
    expect(byName['bitmap-lua']?.commands).toBe(1);
    expect(byName['bitmap-pipeline']?.commands).toBeGreaterThan(2 * DAYS.length);
  });

  it('counts a day range inside the data, and days with no data as 0', async () => {
    const r = report(await trialOf(redis(), { where: 'age=35-44', from: '2024-01-08', to: '2024-01-12' }));
    const want = expected((u) => u.attrs.age === '35-44', DAYS.slice(7));
    expect(r.days).toEqual([...want.days, { day: '2024-01-11', count: 0 }, { day: '2024-01-12', count: 0 }]);
    expect(r.countsMatch).toBe(true);
  });
});

describe('the cross-check', () => {
  it('flags a strategy whose data disagrees, day by day, and does not average it away', async () => {
    const victim = USERS.find((u) => u.attrs.gender === 'f' && u.activeDays.includes(2)) as DemoUser;
    await admin.srem('active:2024-01-03:set', String(victim.id));
    try {
      const r = report(await trialOf(redis(), { where: 'gender=f', strategies: ['bitmap-lua', 'sets'] }));
      expect(r.countsMatch).toBe(false);
      expect(r.mismatches).toEqual([{ strategy: 'sets', reference: 'bitmap-lua', day: '2024-01-03', expected: expect.any(Number), got: expect.any(Number) }]);
      expect(r.mismatches[0]?.expected).toBe((r.mismatches[0]?.got ?? 0) + 1);
      expect(r.strategies.find((s) => s.name === 'sets')?.matches).toBe(false);
      expect(r.warnings[0]).toMatch(/^COUNTS DIFFER/);
    } finally {
      await admin.sadd('active:2024-01-03:set', String(victim.id));
    }
  });
});

describe('scratch keys', () => {
  /** A `sets` strategy that stores one scratch key, then does `then` (fail, drop its connection…). */
  const afterOneStore = (then: (key: string) => Promise<{ size: number; counts: number[] }>) =>
    trialOf(
      redis(),
      { where: 'gender=f AND age=25-34', strategies: ['sets'] },
      {
        strategies: {
          sets: {
            name: 'sets',
            layouts: ['set'],
            writes: () => true,
            async run(link, env) {
              await link.call([['SINTERSTORE', env.scratch.key(0), 'attr:gender:f:set', 'attr:age:25-34:set']]);
              return then(env.scratch.key(0));
            },
          },
        },
      },
    );

  it('are removed when a strategy fails half-way, after a store', async () => {
    const t = await afterOneStore(async (key) => {
      expect(await admin.exists(key)).toBe(1);
      throw new Error('boom after the store');
    });
    expect(t.final).toMatchObject({ kind: 'failed', error: { message: expect.stringContaining('boom') } });
    expect(await scratchLeft(admin)).toEqual([]);
  });

  it('are removed through a fresh connection when the trial lost its own', async () => {
    const t = await afterOneStore(async () => {
      await admin.client('KILL', 'USER', 'default', 'SKIPME', 'YES');
      return { size: 0, counts: [] };
    });
    expect(t.final).toMatchObject({ kind: 'failed', error: { code: 'DISCONNECTED' } });
    expect(await scratchLeft(admin)).toEqual([]);
  });

  it('are removed when a command fails inside the script or the pipeline', async () => {
    // Bitmap templates aimed at the sets: BITOP gets WRONGTYPE inside the script, after its first store.
    const layout = { bitmapAttr: 'attr:{name}:{value}:set' };
    const t = await trialOf(redis(), { where: '(gender=f OR gender=m) AND NOT age=18-24', strategies: ['bitmap-lua', 'bitmap-pipeline', 'sets'], layout });
    const r = report(t);
    expect(r.strategies.find((s) => s.name === 'bitmap-lua')?.skipped).toMatch(/WRONGTYPE/);
    expect(r.strategies.find((s) => s.name === 'bitmap-pipeline')?.skipped).toMatch(/WRONGTYPE/);
    expect(r.strategies.find((s) => s.name === 'sets')?.skipped).toBeUndefined();
    expect(await scratchLeft(admin)).toEqual([]);
  });
});

describe('a cancelled trial', () => {
  it('reports the strategies that finished and leaves no scratch key', async () => {
    const abort = new AbortController();
    const t = await trialOf(
      redis(),
      { where: 'gender=f AND NOT interest=news', trials: 3 },
      { signal: abort.signal, onEvent: (e) => e.kind === 'strategy' && abort.abort() },
    );
    expect(t.final.kind).toBe('cancelled');
    if (t.final.kind !== 'cancelled') return;
    expect(t.final.report.strategies.map((s) => s.name)).toEqual(['bitmap-lua']);
    expect(t.final.report.audienceSize).toBe(expected((u) => u.attrs.gender === 'f' && !has(u, 'news')).size);
    expect(await scratchLeft(admin)).toEqual([]);
  });
});

describe('a Redis user without write rights on the scratch prefix', () => {
  beforeAll(async () => {
    await admin.call(
      'ACL',
      'SETUSER',
      'reader',
      'reset',
      'on',
      '>pw',
      '%R~*',
      '-@all',
      '+@read',
      '+@connection',
      '+info',
      '+client|setname',
      '+client|id',
      '+select',
      '+scan',
    );
    // The README's analyst user: may write the trial prefix, has no scripting.
    await admin.call('ACL', 'SETUSER', ...readmeAclLine('pw'));
  });

  it('gets the strategies that write skipped with the reason, and the others run', async () => {
    const r = report(await trialOf(redis(), { where: 'interest=golf' }, { spec: { username: 'reader', password: 'pw' } }));
    const skipped = Object.fromEntries(r.strategies.map((s) => [s.name, s.skipped]));
    expect(skipped['bitmap-lua']).toMatch(/may not write scratch keys under cacheboard:trial:audience:r[0-9a-f]+:.*NOPERM/);
    expect(skipped['bitmap-pipeline']).toMatch(/NOPERM/);
    expect(skipped.zunionstore).toMatch(/NOPERM/);
    // One term is read in place: SCARD and SINTERCARD write nothing.
    expect(skipped.sets).toBeUndefined();
    expect(r.audienceSize).toBe(expected((u) => has(u, 'golf')).size);
  });

  it("with the README's analyst user, only the script is refused (no scripting)", async () => {
    const r = report(await trialOf(redis(), { where: 'gender=f AND region=NE' }, { spec: { username: 'cb-analyst', password: 'pw' } }));
    const skipped = Object.fromEntries(r.strategies.map((s) => [s.name, s.skipped]));
    expect(skipped['bitmap-lua']).toMatch(/^not allowed here: .*NOPERM/);
    expect([skipped['bitmap-pipeline'], skipped.sets, skipped.zunionstore]).toEqual([undefined, undefined, undefined]);
    expect(r.countsMatch).toBe(true);
    expect(await scratchLeft(admin)).toEqual([]);
  });
});

describe('bad input', () => {
  it('refuses to start while another process runs an audience trial on the server', async () => {
    // What another Cacheboard's (or a CLI's) trial shows in CLIENT LIST.
    const other = new Redis({ host: redis().host, port: redis().port, connectionName: audienceTrialName('cli4242') });
    try {
      await other.ping();
      const t = await trialOf(redis(), { where: 'gender=f' });
      expect(t.final).toMatchObject({ kind: 'failed', error: { code: 'CONFLICT' } });
      expect(t.final.kind === 'failed' && t.final.error.message).toMatch(
        /Audience trial cli4242 is already running on 127\.0\.0\.1:\d+ \(client 127\.0\.0\.1:\d+\)/,
      );
      expect(t.events.some((e) => e.kind === 'started')).toBe(false);
    } finally {
      other.disconnect();
    }
    await expect.poll(async () => String(await admin.client('LIST')).includes('cli4242')).toBe(false);
    expect(report(await trialOf(redis(), { where: 'gender=f' })).countsMatch).toBe(true);
  });

  it('names an unknown attribute', async () => {
    const t = await trialOf(redis(), { where: 'gender=f AND region=XX' });
    expect(t.final).toMatchObject({ kind: 'failed', error: { code: 'VALIDATION', field: 'where' } });
    if (t.final.kind === 'failed')
      expect(t.final.error.message).toContain('unknown attribute region=XX: no key attr:region:XX nor attr:region:XX:set (column 14)');
  });

  it('gives a syntax error with its position', async () => {
    const t = await trialOf(redis(), { where: 'gender=f AND (region=NE OR' });
    expect(t.final).toMatchObject({ kind: 'failed', error: { code: 'VALIDATION', field: 'where', position: 26 } });
  });

  it('refuses a scratch prefix a data template could produce, and one that holds data', async () => {
    const t = await trialOf(redis(), { where: 'gender=f', layout: { scratchPrefix: 'attr:tmp:' } });
    expect(t.final).toMatchObject({
      kind: 'failed',
      error: { code: 'VALIDATION', field: 'layout.scratchPrefix', message: expect.stringContaining('collides with data keys "attr:{name}:{value}"') },
    });
    await admin.set('misc:data', 'x');
    const live = await trialOf(redis(), { where: 'gender=f', layout: { scratchPrefix: 'misc:' } });
    expect(live.final).toMatchObject({ kind: 'failed', error: { message: expect.stringContaining('holds data keys (e.g. misc:data)') } });
    expect(await admin.get('misc:data')).toBe('x');
  });

  it('skips a layout that is not there, with the reason', async () => {
    const r = report(await trialOf(redis(), { where: 'gender=f', layout: { userDays: 'nobody:{id}:days' } }));
    expect(r.strategies.find((s) => s.name === 'zunionstore')?.skipped).toMatch(/^no per-user zsets \(nobody:\d+:days does not exist\)/);
    expect(r.countsMatch).toBe(true);
  });
});

describe('a hash-tagged layout', () => {
  it('keeps data and scratch keys in one slot and answers the same', async () => {
    const layout = { hashTag: 'aud' };
    const { final } = await demoInto(redis(), { ...SHAPE, layout, users: 500, overwrite: true }, 0);
    expect(final.kind).toBe('done');
    expect(await admin.exists('{aud}:attr:gender:f', '{aud}:active:2024-01-01:set', '{aud}:user:1:days')).toBeGreaterThan(1);
    const r = report(await trialOf(redis(), { where: 'gender=f AND NOT interest=news', layout }));
    const want = expected((u) => u.id <= 500 && u.attrs.gender === 'f' && !has(u, 'news'));
    expect(r.strategies.every((s) => s.skipped === undefined)).toBe(true);
    expect({ size: r.audienceSize, days: r.days }).toEqual(want);
    expect(await scratchLeft(admin, `${DEFAULT_LAYOUT.scratchPrefix}`)).toEqual([]);
  });
});
