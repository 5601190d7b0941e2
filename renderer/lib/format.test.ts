import { describe, expect, it } from 'vitest';
import {
  formatAvgTtl,
  formatBytes,
  formatCompact,
  formatCount,
  formatDuration,
  formatEta,
  formatFraction,
  formatLatency,
  formatMaxMemory,
  formatPercent,
  formatSeconds,
  hitRatio,
  truncate,
} from './format';

describe('formatBytes', () => {
  it('keeps small values in bytes without decimals', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
  });
  it('uses binary units with fewer decimals as values grow', () => {
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(15 * 1024 * 1024)).toBe('15.0 MiB');
    expect(formatBytes(512 * 1024 ** 3)).toBe('512 GiB');
  });
  it('shows a dash for values that are not numbers', () => {
    expect(formatBytes(Number.NaN)).toBe('—');
  });
  it('says "no limit" for maxmemory 0', () => {
    expect(formatMaxMemory(0)).toBe('no limit');
    expect(formatMaxMemory(1024 ** 3)).toBe('1.00 GiB');
  });
});

describe('formatDuration', () => {
  it('shows seconds under a minute', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(59.9)).toBe('59s');
  });
  it('shows the two largest units', () => {
    expect(formatDuration(725)).toBe('12m 5s');
    expect(formatDuration(3 * 3600 + 4 * 60 + 9)).toBe('3h 4m');
    expect(formatDuration(5 * 86_400 + 3 * 3600 + 59)).toBe('5d 3h');
  });
  it('drops a zero second unit', () => {
    expect(formatDuration(3600)).toBe('1h');
    expect(formatDuration(2 * 86_400 + 30)).toBe('2d');
  });
  it('shows a dash for negative or missing values', () => {
    expect(formatDuration(-1)).toBe('—');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('—');
  });
});

describe('numbers and ratios', () => {
  it('groups thousands', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
  });
  it('formats ratios as percentages with one decimal', () => {
    expect(formatPercent(0.9321)).toBe('93.2 %');
    expect(formatPercent(undefined)).toBe('—');
  });
  it('has no hit ratio before the first lookup', () => {
    expect(hitRatio(0, 0)).toBeUndefined();
    expect(hitRatio(3, 1)).toBe(0.75);
  });
  it('formats latency with precision that suits its size', () => {
    expect(formatLatency(0.4213)).toBe('0.42 ms');
    expect(formatLatency(12.34)).toBe('12.3 ms');
    expect(formatLatency(140.2)).toBe('140 ms');
  });
  it('reads avg_ttl as milliseconds and 0 as "no TTL"', () => {
    expect(formatAvgTtl(0)).toBe('—');
    expect(formatAvgTtl(90_000)).toBe('1m 30s');
  });
});

describe('progress figures', () => {
  it('never rounds up to 100 % before the end', () => {
    expect(formatFraction(0.9999)).toBe('99.9 %');
    expect(formatFraction(1)).toBe('100.0 %');
    expect(formatFraction(undefined)).toBe('—');
  });

  it('formats ETAs and run times for people', () => {
    expect(formatEta(undefined)).toBe('—');
    expect(formatEta(0.3)).toBe('<1s');
    expect(formatEta(125)).toBe('2m 5s');
    expect(formatSeconds(1.234)).toBe('1.23 s');
    expect(formatSeconds(42.25)).toBe('42.3 s');
    expect(formatSeconds(3700)).toBe('1h 1m');
  });
});

describe('formatCompact', () => {
  it('formats axis numbers compactly', () => {
    expect(formatCompact(950)).toBe('950');
    expect(formatCompact(1234)).toBe('1.2k');
    expect(formatCompact(45_000)).toBe('45k');
    expect(formatCompact(5_600_000)).toBe('5.6M');
  });
});

describe('truncate', () => {
  it('cuts long untrusted text by characters, not UTF-16 units', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
    expect(truncate('😀😀😀😀😀', 3)).toBe('😀😀…');
  });
});
