import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryInterval, SamplingReport } from '../../../app/schemas/sampling';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { MemoryMoments, SERVER_SLACK, SERVER_SLACK_BYTES, checkAgainstServer, memoryInterval } from './memoryInterval';
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
  it('give a 95% interval that holds the census where no key outweighs the rest', async () => {
    const admin = await adminClient(redis());
    // 3,000 small strings of varied length and 60 short lists.
    await fill(admin, 3_000, (p, i) => p.set(`s:${i}`, `value-${i}-${'x'.repeat(i % 40)}`));
    await fill(admin, 60, (p, i) => p.rpush(`l:${i}`, 'a', 'b', 'c'));

    const census = (await sampleOf(redis(), { method: 'census' })).report;
    // Fewer draws than keys: as many or more would be a census.
    const sample = (await sampleOf(redis(), { method: 'sample', samples: 2_500 })).report;
    expect(sample.method).toBe('sample');

    // Every sampled memory figure carries an interval or says why it has none.
    for (const t of sample.types) expect(t.memoryInterval).toBeDefined();
    // The total and the strings: the census lies inside the interval (widened to ~99.9%, so the test is not flaky at 1 in 20).
    for (const [got, estimate, exact] of [
      [sample.memoryTotalInterval, sample.estimatedMemoryTotal, census.memoryTotal],
      [typeOf(sample, 'string')?.memoryInterval, typeOf(sample, 'string')?.estimatedMemory ?? Number.NaN, typeOf(census, 'string')?.memory ?? Number.NaN],
    ] as const) {
      const b = bounds(got);
      expect(b.low).toBeLessThanOrEqual(estimate);
      expect(b.high).toBeGreaterThanOrEqual(estimate);
      expect(Math.abs(exact - estimate)).toBeLessThanOrEqual(1.7 * (b.high - estimate));
    }
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

  it('refuses an interval when a few keys skew the draws, though none holds half of them', () => {
    const moments = (xs: number[]) => xs.reduce((m, x) => m.add(x), new MemoryMoments());
    // 2,000 draws: 1,998 keys of 56-63 bytes and two keys of 2 MB, each drawn once: the bigger holds under half.
    const xs = [...Array.from({ length: 1_998 }, (_, i) => 56 + (i % 8)), 2_000_000, 2_000_000];
    expect(memoryInterval(moments(xs), 2_000, 20_000, false)).toMatchObject({ notEstimable: expect.stringMatching(/^the draws are skewed \(skewness \d+/) });
    // Keys of nearly one size: no skew to speak of, and an interval (no rounding in the sum of cubes makes one up).
    const alike = Array.from({ length: 2_000 }, (_, i) => 1_000_000 + (i % 3));
    expect(memoryInterval(moments(alike), 2_000, 20_000, false)).toMatchObject({ low: expect.any(Number), high: expect.any(Number) });
  });

  it("withdraws an interval the server's dataset exceeds: keys the sample never drew hold the difference", () => {
    const interval = { low: 1_000_000, high: 1_200_000 };
    expect(checkAgainstServer(interval, 9_000_000)).toMatchObject({
      notEstimable: expect.stringMatching(/^the server holds 8\.6 MiB of data \(INFO used_memory_dataset\).*run a census/),
    });
    // Within what MEMORY USAGE and the dataset differ by, or no figure from the server: the interval stands.
    expect(checkAgainstServer(interval, interval.high * SERVER_SLACK + SERVER_SLACK_BYTES)).toBe(interval);
    expect(checkAgainstServer(interval, undefined)).toBe(interval);
  });
});
