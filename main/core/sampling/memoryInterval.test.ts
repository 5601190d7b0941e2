import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryInterval, SamplingReport } from '../../../app/schemas/sampling';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { MemoryMoments, memoryInterval } from './memoryInterval';
import { fill, sampleOf } from './samplingTestKit';

const redis = useRedis();
afterAll(closeAdmins);

const typeOf = (r: SamplingReport, type: string) => r.types.find((t) => t.type === type);

/** The interval's bounds, failing the test when the figure was refused instead. */
function bounds(i: MemoryInterval | undefined): { low: number; high: number } {
  if (i === undefined || 'notEstimable' in i) return expect.fail(`expected an interval, got ${JSON.stringify(i)}`);
  return i;
}

describe('sampled memory figures', () => {
  it('give a 95% interval that holds the census, and refuse a figure one big key would make up', async () => {
    const admin = await adminClient(redis());
    // 3,000 small strings, 60 short lists and one list that outweighs all the other lists together.
    await fill(admin, 3_000, (p, i) => p.set(`s:${i}`, `value-${i}`));
    await fill(admin, 60, (p, i) => p.rpush(`l:${i}`, 'a', 'b', 'c'));
    await admin.eval("for i = 1, 20000 do redis.call('RPUSH', KEYS[1], 'item-' .. i) end", 1, 'l:big');

    const census = (await sampleOf(redis(), { method: 'census' })).report;
    // Enough draws that the big list is drawn (it is missed with probability ~e^-6.6).
    const sample = (await sampleOf(redis(), { method: 'sample', samples: 20_000 })).report;

    // Every sampled memory figure carries an interval or says why it has none.
    for (const t of sample.types) expect(t.memoryInterval).toBeDefined();
    expect(sample.memoryTotalInterval).toBeDefined();

    // Lists: one key holds most of what the sample saw, scaled up by DBSIZE / draws: refused, saying so.
    const lists = typeOf(sample, 'list')?.memoryInterval;
    expect(lists).toMatchObject({ notEstimable: expect.stringMatching(/one key \(drawn (once|\d+ times)\) makes up \d+% /) });
    // Strings: many keys alike. The census lies inside the interval (widened to ~99.9%, so the test is not flaky at 1 in 20).
    const strings = bounds(typeOf(sample, 'string')?.memoryInterval);
    const estimate = typeOf(sample, 'string')?.estimatedMemory ?? Number.NaN;
    const exact = typeOf(census, 'string')?.memory ?? Number.NaN;
    expect(strings.low).toBeLessThanOrEqual(estimate);
    expect(strings.high).toBeGreaterThanOrEqual(estimate);
    expect(Math.abs(exact - estimate)).toBeLessThanOrEqual(1.7 * (strings.high - estimate));
    // A census is exact: its interval is the figure itself.
    expect(bounds(typeOf(census, 'list')?.memoryInterval)).toEqual({ low: typeOf(census, 'list')?.memory, high: typeOf(census, 'list')?.memory });
    expect(bounds(census.memoryTotalInterval)).toEqual({ low: census.memoryTotal, high: census.memoryTotal });
  });

  it('rank lengths in one unit: collections by elements, strings apart by bytes', async () => {
    const admin = await adminClient(redis());
    await admin.flushdb();
    await admin.set('str:big', 'x'.repeat(50_000));
    await admin.rpush('list:long', ...Array.from({ length: 300 }, (_, i) => `e${i}`));
    await admin.hset('hash:small', 'a', '1', 'b', '2');
    const { report } = await sampleOf(redis(), { method: 'census' });
    // 50,000 bytes are not "more" than 300 elements: they are not on the same scale.
    expect(report.topByLength.map((k) => k.key.text)).toEqual(['list:long', 'hash:small']);
    expect(report.topStringsByLength.map((k) => [k.key.text, k.length])).toEqual([['str:big', 50_000]]);
  });
});

describe('memoryInterval', () => {
  it('widens with spread and narrows with draws; refuses too few draws of a kind', () => {
    const moments = (xs: number[]) => xs.reduce((m, x) => m.add(x), new MemoryMoments());
    const even = Array.from({ length: 100 }, (_, i) => 100 + (i % 10));
    const spread = Array.from({ length: 100 }, (_, i) => 10 + (i % 10) * 40);
    const width = (i: MemoryInterval) => ('notEstimable' in i ? Number.NaN : i.high - i.low);
    expect(width(memoryInterval(moments(even), 200, 10_000, false))).toBeLessThan(width(memoryInterval(moments(spread), 200, 10_000, false)));
    expect(width(memoryInterval(moments([...even, ...even]), 400, 10_000, false))).toBeLessThan(width(memoryInterval(moments(even), 200, 10_000, false)));
    expect(memoryInterval(moments([5, 6]), 200, 10_000, false)).toMatchObject({ notEstimable: expect.stringContaining('only 2 keys') });
    // One big key drawn once among small ones: the figure would be that key scaled up by DBSIZE / draws.
    expect(memoryInterval(moments([...even.slice(0, 20), 1_000_000]), 200, 10_000, false)).toMatchObject({
      notEstimable: expect.stringMatching(/^one key \(drawn once\) makes up (99|100)% /),
    });
  });
});
