import { describe, expect, it } from 'vitest';
import { commandLine, formatMicros, hiddenArgsNote, percentOf, since, toEpochMs } from './display';

describe('display helpers', () => {
  it('reads Redis seconds and our milliseconds alike', () => {
    expect(toEpochMs(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toEpochMs(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(since(1_700_000_000, 1_700_000_075_000)).toBe('1m 15s');
  });

  it('formats microseconds', () => {
    expect(formatMicros(850)).toBe('850 µs');
    expect(formatMicros(18_234)).toBe('18.2 ms');
    expect(formatMicros(1_200_000)).toBe('1.20 s');
  });

  it('builds a slowlog command line, each argument and the whole cut, the full text kept', () => {
    const long = 'x'.repeat(500);
    const c = commandLine(['SET', 'k', long, 'with space', '<b>'], 10, 40);
    expect(c.full).toBe(`SET k ${long} "with space" <b>`);
    expect(c.short).toBe('SET k xxxxxxxxx… "with space" <b>');
    expect(Array.from(commandLine(Array(50).fill('abcdefgh'), 48, 40).short)).toHaveLength(40);
  });

  it("says how many of an analyst's slowlog arguments the server withheld", () => {
    expect(hiddenArgsNote(undefined)).toBeUndefined();
    expect(hiddenArgsNote(0)).toBeUndefined();
    expect(hiddenArgsNote(1)).toBe('+1 arg hidden');
    expect(hiddenArgsNote(40)).toBe('+40 args hidden');
  });

  it('bounds bar widths', () => {
    expect(percentOf(50, 200)).toBe(25);
    expect(percentOf(500, 200)).toBe(100);
    expect(percentOf(50, 0)).toBe(0);
  });
});
