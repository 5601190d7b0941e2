import { describe, expect, it } from 'vitest';
import {
  bucketLabel,
  childCounts,
  ciHalfWidth,
  emptyMessage,
  formatBinary,
  formatCi,
  formatCiRange,
  formatTtl,
  histogramBars,
  histogramTypes,
  namespaceDepths,
  shareBar,
  shareTicks,
  topNamespaces,
  ttlRows,
} from './report';
import { testReport } from './reportTestKit';

describe('confidence intervals', () => {
  it('shows the larger half of a 95% interval as ±', () => {
    const s = { percent: 41.2, ciLow: 38.1, ciHigh: 44.5 };
    expect(ciHalfWidth(s)).toBeCloseTo(3.3);
    expect(formatCi(s)).toBe('±3.3 %');
    expect(formatCiRange(s)).toBe('38.1–44.5 %');
    expect(formatCi({ percent: 0.5, ciLow: 0.47, ciHigh: 0.53 })).toBe('±0.03 %');
  });

  it('says nothing for a census, whose shares are exact', () => {
    const s = { percent: 75, ciLow: 75, ciHigh: 75 };
    expect(formatCi(s)).toBe('');
    expect(formatCiRange(s)).toBe('exact');
  });
});

describe('share charts', () => {
  it('puts the share and its ± beside a bar, and the interval as whiskers', () => {
    const bar = shareBar('string', 'string', { count: 612, percent: 61.2, ciLow: 60.2, ciHigh: 62.3 }, '#000', true);
    expect(bar.figure).toBe('61.2 % ±1.1');
    expect(bar.err?.[0]).toBeCloseTo(1.0);
    expect(bar.err?.[1]).toBeCloseTo(1.1);
    expect(bar.detail).toBe('612 keys · 61.2 % (95% CI 60.2–62.3 %)');
    const census = shareBar('hash', 'hash', { count: 3, percent: 75, ciLow: 75, ciHigh: 75 }, '#000', false);
    expect(census.figure).toBe('75.0 %');
    expect(census.err).toBeUndefined();
  });

  it('steps a percentage axis evenly past the widest interval', () => {
    expect(shareTicks([{ percent: 61.2, ciHigh: 62.3 }])).toEqual([0, 25, 50, 75]);
    expect(shareTicks([{ percent: 9, ciHigh: 12 }])).toEqual([0, 5, 10, 15]);
    expect(shareTicks([{ percent: 30, ciHigh: 31 }])).toEqual([0, 10, 20, 30, 40]);
    expect(shareTicks([])).toEqual([0, 5]);
  });
});

describe('histogram labels', () => {
  it('names powers of two of bytes exactly', () => {
    expect(formatBinary(512)).toBe('512 B');
    expect(formatBinary(1024)).toBe('1 KiB');
    expect(formatBinary(64 * 1024 * 1024)).toBe('64 MiB');
    expect(formatBinary(1536)).toBe('1.50 KiB');
    expect(bucketLabel(1024, 'bytes')).toBe('≤ 1 KiB');
    expect(bucketLabel(0, 'bytes')).toBe('0');
  });

  it('counts elements exactly, then compactly', () => {
    expect(bucketLabel(4096, 'elements')).toBe('≤ 4,096');
    expect(bucketLabel(16_384, 'elements')).toBe('≤ 16k');
  });

  it('fills the empty powers of two between the smallest and the largest bucket', () => {
    const bars = histogramBars(
      {
        type: 'string',
        buckets: [
          { le: 16, count: 2 },
          { le: 128, count: 1 },
          { le: 0, count: 4 },
        ],
      },
      'bytes',
    );
    expect(bars.map((b) => [b.label, b.count])).toEqual([
      ['0', 4],
      ['≤ 16 B', 2],
      ['≤ 32 B', 0],
      ['≤ 64 B', 0],
      ['≤ 128 B', 1],
    ]);
    expect(bars[1]?.range).toBe('9 B – 16 B');
    expect(histogramBars(undefined, 'bytes')).toEqual([]);
  });

  it('offers the types with a histogram, most keys first', () => {
    expect(histogramTypes(testReport())).toEqual(['string', 'hash']);
  });
});

describe('ttl and namespaces', () => {
  it('lists every TTL bucket in order, missing ones as zero', () => {
    const rows = ttlRows(testReport());
    expect(rows.map((r) => [r.bucket, r.count])).toEqual([
      ['none', 3],
      ['fields', 0],
      ['lt1m', 0],
      ['lt1h', 1],
      ['lt1d', 0],
      ['longer', 0],
    ]);
    expect(formatTtl(-1)).toBe('none');
    expect(formatTtl(90)).toBe('1m 30s');
  });

  it('ranks the prefixes under a parent by memory or count', () => {
    const ns = [
      { prefix: 'a:', parent: '', depth: 1, count: 10, memory: 100, percent: 10, keys: 10, keysLow: 10, keysHigh: 10 },
      { prefix: 'b:', parent: '', depth: 1, count: 5, memory: 900, percent: 5, keys: 5, keysLow: 5, keysHigh: 5 },
      { prefix: 'a:x:', parent: 'a:', depth: 2, count: 4, memory: 40, percent: 4, keys: 4, keysLow: 4, keysHigh: 4 },
    ];
    const top = ns.filter((n) => n.parent === '');
    expect(topNamespaces(top, 'memory', 5).map((n) => n.prefix)).toEqual(['b:', 'a:']);
    expect(topNamespaces(top, 'count', 1).map((n) => n.prefix)).toEqual(['a:']);
    expect(topNamespaces(ns, 'count', 2).map((n) => n.prefix)).toEqual(['a:', 'b:']);
    expect(namespaceDepths(ns)).toEqual([1, 2]);
    expect(childCounts(ns).get('a:')).toBe(1);
    expect(childCounts(ns).get('')).toBe(2);
  });

  it('tells an empty DB from a MATCH that found nothing and an early cancel', () => {
    expect(emptyMessage(testReport(), 'done')).toBeUndefined();
    expect(emptyMessage(testReport({ keysExamined: 0, dbsize: 0, db: 3 }), 'done')?.title).toBe('DB 3 is empty');
    expect(emptyMessage(testReport({ keysExamined: 0, dbsize: 9, match: 'nope:*' }), 'done')?.title).toBe('No key in DB 0 matches nope:*');
    expect(emptyMessage(testReport({ keysExamined: 0, dbsize: 9 }), 'cancelled')?.title).toBe('Cancelled before any key was examined');
    expect(emptyMessage(testReport({ keysExamined: 0, dbsize: 9 }), 'done')?.title).toBe('No key examined in DB 0');
  });
});
