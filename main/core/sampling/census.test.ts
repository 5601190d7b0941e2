import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { fill, sampleOf, typeRow } from './samplingTestKit';

const redis = useRedis();
afterAll(closeAdmins);
beforeEach(async () => {
  await (await adminClient(redis())).flushall();
});

/** What the mix below writes, so expectations come from the data, not from a run. */
const MIX = { int: 1_000, embstr: 1_000, raw: 1_000, hash: 400, set: 300, zset: 200, list: 100, stream: 20 };
const TTL = { lt1m: 100, lt1h: 200, lt1d: 300, longer: 50 };

async function writeMix(): Promise<void> {
  const admin = await adminClient(redis());
  await fill(admin, MIX.int, (p, i) => p.set(`str:int:${i}`, String(i * 7)));
  await fill(admin, MIX.embstr, (p, i) => p.set(`str:emb:${i}`, `v${i}`));
  await fill(admin, MIX.raw, (p, i) => p.set(`str:raw:${i}`, 'r'.repeat(100 + (i % 50))));
  await fill(admin, MIX.hash, (p, i) => p.hset(`obj:user:${i}`, { name: `n${i}`, mail: `m${i}@x` }));
  await fill(admin, MIX.set, (p, i) => p.sadd(`set:${i}`, 1, 2, 3, i + 10));
  await fill(admin, MIX.zset, (p, i) => p.zadd(`rank:${i}`, 1, 'a', 2, 'b'));
  // One list far longer than anything else, so it heads the length ranking among aggregates.
  await fill(admin, MIX.list, (p, i) => p.rpush(`q:${i}`, ...Array.from({ length: i === 7 ? 1_000 : 3 }, (_, j) => `j${j}`)));
  await fill(admin, MIX.stream, (p, i) => p.xadd(`ev:${i}`, '*', 'f', 'v'));
  // TTLs on the int strings, one bucket after another.
  let next = 0;
  for (const [bucket, n] of Object.entries(TTL)) {
    const seconds = { lt1m: 50, lt1h: 1_800, lt1d: 40_000, longer: 200_000 }[bucket] as number;
    const from = next;
    await fill(admin, n, (p, i) => p.expire(`str:int:${from + i}`, seconds));
    next += n;
  }
}

describe('census', () => {
  it('counts a known mix exactly: types, encodings, TTL buckets, lengths, memory', async () => {
    await writeMix();
    const admin = await adminClient(redis());
    const total = Object.values(MIX).reduce((a, b) => a + b, 0);
    const { report, events } = await sampleOf(redis(), { method: 'census' });

    expect(events[0]).toMatchObject({ kind: 'started', method: 'census', dbsize: total, target: total });
    expect(report).toMatchObject({ method: 'census', dbsize: total, keysExamined: total, keysMissing: 0 });
    const strings = MIX.int + MIX.embstr + MIX.raw;
    expect(Object.fromEntries(report.types.map((t) => [t.type, t.count]))).toEqual({
      string: strings,
      hash: MIX.hash,
      set: MIX.set,
      zset: MIX.zset,
      list: MIX.list,
      stream: MIX.stream,
    });
    // A census is exact: its interval is the percent itself, its estimates its counts.
    const str = typeRow(report, 'string');
    expect(str).toMatchObject({ percent: (strings / total) * 100, ciLow: (strings / total) * 100, estimatedCount: strings });
    const enc = (type: string, encoding: string) => report.encodings.find((e) => e.type === type && e.encoding === encoding)?.count;
    expect([enc('string', 'int'), enc('string', 'embstr'), enc('string', 'raw'), enc('set', 'intset')]).toEqual([MIX.int, MIX.embstr, MIX.raw, MIX.set]);
    expect(report.encodings.reduce((a, e) => a + e.count, 0)).toBe(total);
    const persistent = total - Object.values(TTL).reduce((a, b) => a + b, 0);
    // This server has no hash-field expiry (COMMAND INFO knows no HTTL): no key is in `fields`.
    expect(Object.fromEntries(report.ttl.map((t) => [t.bucket, t.count]))).toEqual({ none: persistent, fields: 0, ...TTL });

    // Memory: the sum of MEMORY USAGE … SAMPLES 5 over every key, asked key by key from the side.
    const keys = (await admin.keys('*')).sort();
    const p = admin.pipeline();
    for (const k of keys) p.call('MEMORY', 'USAGE', k, 'SAMPLES', '5');
    const sizes = ((await p.exec()) ?? []).map(([, v]) => Number(v));
    expect(report.memoryTotal).toBe(sizes.reduce((a, b) => a + b, 0));
    expect(report.estimatedMemoryTotal).toBe(report.memoryTotal);
    expect(report.topByMemory[0]?.memory).toBe(Math.max(...sizes));

    expect(report.topByLength[0]).toMatchObject({ key: { text: 'q:7' }, type: 'list', length: 1_000 });
    const rawLengths = report.topStringsByLength.map((k) => k.length);
    expect(Math.max(...rawLengths)).toBe(149);
    // Histograms hold every key of their type.
    for (const h of report.lengthHistograms) {
      expect(h.buckets.reduce((a, b) => a + b.count, 0)).toBe(typeRow(report, h.type)?.count);
    }
    const ns = Object.fromEntries(report.namespaces.map((n) => [n.prefix, n.count]));
    expect(ns).toMatchObject({ 'str:': strings, 'str:raw:': MIX.raw, 'obj:': MIX.hash, 'obj:user:': MIX.hash, 'set:': MIX.set });
  });

  it('types keys whose encoding two types share (listpack, hashtable) by asking TYPE, and counts their lengths', async () => {
    const admin = await adminClient(redis());
    // Small aggregates are listpack (hash, zset) or intset; past 512 fields a hash turns
    // hashtable, past 128 members a zset skiplist or a set of strings hashtable (a small one is
    // listpack from Redis 7.2). Sizes below differ per key, so a length credited to the wrong key
    // or type shows. The encodings expected are the server's own (OBJECT ENCODING), not assumed.
    const shapes = {
      'hash:listpack': (i: number) => admin.hset(`h:small:${i}`, Object.fromEntries(Array.from({ length: 2 + i }, (_, j) => [`f${j}`, 'v']))),
      'hash:hashtable': (i: number) => admin.hset(`h:big:${i}`, Object.fromEntries(Array.from({ length: 600 + i }, (_, j) => [`f${j}`, 'v']))),
      'set:hashtable': (i: number) => admin.sadd(`s:big:${i}`, ...Array.from({ length: 200 + i }, (_, j) => `m${j}`)),
      'set:intset': (i: number) => admin.sadd(`s:int:${i}`, ...Array.from({ length: 3 + i }, (_, j) => j)),
      'zset:listpack': (i: number) => admin.zadd(`z:small:${i}`, ...Array.from({ length: 2 + i }, (_, j) => [j, `p${j}`]).flat()),
      'zset:skiplist': (i: number) => admin.zadd(`z:big:${i}`, ...Array.from({ length: 200 + i }, (_, j) => [j, `p${j}`]).flat()),
    };
    const perShape = 5;
    for (const write of Object.values(shapes)) for (let i = 0; i < perShape; i++) await write(i);
    const expected: Record<string, number> = {};
    const written = ['h:small', 'h:big', 's:big', 's:int', 'z:small', 'z:big'].flatMap((p) => Array.from({ length: perShape }, (_, i) => `${p}:${i}`));
    for (const key of written) {
      const shape = `${await admin.type(key)}:${String(await admin.object('ENCODING', key))}`;
      expected[shape] = (expected[shape] ?? 0) + 1;
    }
    // Two types share listpack and hashtable: six groups, one per shape, whatever the server's names.
    expect(Object.keys(expected)).toHaveLength(Object.keys(shapes).length);

    // By script and by plain commands, in the default groups and in groups of 3 with 2 in flight.
    const small = { groupSize: 3, maxInFlight: 2, scriptGroupSize: 3, scriptMaxInFlight: 2 };
    for (const tuning of [{}, small, { scripts: false }, { ...small, scripts: false }]) {
      const { report } = await sampleOf(redis(), { method: 'census' }, { tuning });
      const byEncoding = Object.fromEntries(report.encodings.map((e) => [`${e.type}:${e.encoding}`, e.count]));
      expect(byEncoding).toEqual(expected);
      // The longest of each kind, as the server counts it.
      const lengthOf = (key: string) => report.topByLength.find((k) => k.key.text === key)?.length;
      expect(lengthOf('z:big:4')).toBe(await admin.zcard('z:big:4'));
      expect(lengthOf('h:big:4')).toBe(await admin.hlen('h:big:4'));
      expect(lengthOf('h:big:0')).toBe(600);
      for (const h of report.lengthHistograms) {
        expect(h.buckets.reduce((a, b) => a + b.count, 0)).toBe(typeRow(report, h.type)?.count);
      }
      // No set counted as empty: each got its SCARD (intset directly, hashtable after TYPE).
      const emptySets = report.lengthHistograms.find((h) => h.type === 'set')?.buckets.find((b) => b.le === 0)?.count ?? 0;
      expect(emptySets).toBe(0);
    }
  });

  it('counts strings exactly when the user may not run INFO (and so cannot rule out modules)', async () => {
    await writeMix();
    const admin = await adminClient(redis());
    await admin.call('ACL', 'SETUSER', 'noinfo', 'on', '>pw', '~*', '+@all', '-info');
    const { report } = await sampleOf(redis(), { method: 'census' }, { spec: { username: 'noinfo', password: 'pw' } });
    const strings = MIX.int + MIX.embstr + MIX.raw;
    expect(typeRow(report, 'string')?.count).toBe(strings);
    expect(report.encodings.find((e) => e.type === 'string' && e.encoding === 'raw')?.count).toBe(MIX.raw);
    const rawLengths = report.topStringsByLength.map((k) => k.length);
    expect(Math.max(...rawLengths)).toBe(149);
  });

  it('shows binary, CR/LF and 10 KB keys escaped, with their real byte length', async () => {
    const admin = await adminClient(redis());
    await admin.set(Buffer.from([0xff, 0xfe]), 'x'.repeat(50_000));
    await admin.set(Buffer.from('cr\r\nlf "q"'), 'y'.repeat(40_000));
    await admin.set(Buffer.alloc(10_240, 'k'), 'z');
    await fill(admin, 200, (p, i) => p.set(`small:${i}`, 's'));
    const { report } = await sampleOf(redis(), { method: 'census' });
    expect(report.topStringsByLength.slice(0, 2).map((k) => k.key)).toEqual([
      { text: '\\xff\\xfe', bytes: 2, truncated: false },
      { text: 'cr\\r\\nlf \\"q\\"', bytes: 10, truncated: false },
    ]);
    const long = report.topByMemory.find((k) => k.key.bytes === 10_240);
    expect(long?.key.truncated).toBe(true);
    expect(long?.key.text).toHaveLength(1_024);
    expect(report.keysExamined).toBe(203);
  });

  it('with MATCH examines only the matching keys', async () => {
    const admin = await adminClient(redis());
    await fill(admin, 300, (p, i) => p.set(`user:${i}`, 'u'));
    await fill(admin, 700, (p, i) => p.set(`other:${i}`, 'o'));
    const { report } = await sampleOf(redis(), { method: 'census', match: 'user:*', scanCount: 50 });
    expect(report).toMatchObject({ keysExamined: 300, match: 'user:*' });
    expect(report.namespaces.map((n) => n.prefix)).toEqual(['user:']);
  });

  it('reports an empty DB clearly, with no NaN anywhere', async () => {
    for (const method of ['census', 'sample'] as const) {
      const { report, final } = await sampleOf(redis(), { method });
      expect(final.kind).toBe('done');
      expect(report).toMatchObject({ keysExamined: 0, dbsize: 0, types: [], namespaces: [], topByMemory: [] });
      expect(report.warnings).toContain('the DB is empty');
      expect(JSON.stringify(report)).not.toMatch(/NaN|null/);
      expect(report.ttl.every((t) => t.percent === 0 && t.ciHigh === 0)).toBe(true);
    }
  });

  it('counts every key that stays exactly once while others are added and deleted and the table shrinks', async () => {
    const admin = await adminClient(redis());
    const stable = 2_000;
    await fill(admin, stable, (p, i) => p.set(`stable:${i}`, 'v'));
    await fill(admin, 60_000, (p, i) => p.set(`temp:${i}`, 'v'));
    const writer = await adminClient(redis());
    let churn: Promise<void> | null = null;
    // A third of the way in, delete the temp keys and add a few new ones: Redis shrinks the
    // table (64k to 4k buckets), and SCAN then returns keys it had already returned.
    const onEvent = (e: { kind: string; examined?: number }) => {
      if (churn !== null || e.kind !== 'progress' || (e.examined ?? 0) < 20_000) return;
      churn = (async () => {
        await fill(writer, 60_000, (p, i) => p.unlink(`temp:${i}`));
        await fill(writer, 1_000, (p, i) => p.set(`new:${i}`, 'v'));
      })();
    };
    const { report } = await sampleOf(redis(), { method: 'census', scanCount: 100, pauseMs: 1 }, { onEvent });
    await churn;
    const ns = Object.fromEntries(report.namespaces.filter((n) => n.depth === 1).map((n) => [n.prefix, n.count]));
    expect(ns['stable:']).toBe(stable);
    expect(ns['temp:'] ?? 0).toBeLessThanOrEqual(60_000);
    expect(ns['new:'] ?? 0).toBeLessThanOrEqual(1_000);
    expect(report.keysExamined).toBe(stable + (ns['temp:'] ?? 0) + (ns['new:'] ?? 0));
  });
});
