import { describe, expect, it } from 'vitest';
import { niceAxis, niceStep, timeTicks, type TickUnit } from './ticks';

const MIB = 1024 ** 2;

/** Every step between ticks, in the unit the labels show. */
function steps(ticks: number[]): number[] {
  return ticks.slice(1).map((t, i) => t - (ticks[i] ?? 0));
}

/** 1, 2 or 5 times a power of ten (to float precision). */
function isNice(x: number): boolean {
  const pow = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].some((m) => Math.abs(x / pow - m) < 1e-6);
}

describe('niceStep', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(0.037)).toBeCloseTo(0.05);
    expect(niceStep(1)).toBe(1);
    expect(niceStep(1.01)).toBe(2);
    expect(niceStep(2.5)).toBe(5);
    expect(niceStep(7)).toBe(10);
    expect(niceStep(420)).toBe(500);
  });
});

describe('niceAxis', () => {
  // Maxima seen on the pages (the among them) and a spread of others.
  const cases: [TickUnit, number][] = [
    ['bytes', 83.4 * MIB * 1.08],
    ['bytes', 13.9 * MIB],
    ['bytes', 0],
    ['bytes', 45],
    ['bytes', 1000],
    ['bytes', 3.2 * 1024 ** 3],
    ['seconds', 0.23],
    ['seconds', 0.9],
    ['seconds', 1.7],
    ['seconds', 14],
    ['seconds', 95],
    ['seconds', 5000],
    ['count', 20_000],
    ['count', 17_190],
    ['count', 1_200_000],
    ['count', 3],
    ['count', 0],
    ['ms', 0.42],
    ['ms', 151],
    ['percent', 61.2],
  ];

  it.each(cases)('%s up to %d: from 0 past the maximum, in even nice steps, every label distinct', (unit, max) => {
    const { ticks, format } = niceAxis(max, unit);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks.length).toBeLessThanOrEqual(9);
    const s = steps(ticks);
    for (const x of s) expect(x).toBeCloseTo(s[0] ?? 0, 9);
    const labels = ticks.map(format);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('steps 1, 2 or 5 × 10^n in the unit of the labels (MiB for a memory axis, not bytes)', () => {
    const mem = niceAxis(83.4 * MIB * 1.08, 'bytes');
    expect(mem.ticks.map(mem.format)).toEqual(['0', '50 MiB', '100 MiB']);
    const small = niceAxis(13.9 * MIB, 'bytes');
    expect(small.ticks.map(small.format)).toEqual(['0', '5 MiB', '10 MiB', '15 MiB']);
    for (const unit of ['count', 'ms'] as const) {
      for (const max of [3, 17_190, 0.42, 1_200_000]) {
        const { ticks } = niceAxis(max, unit);
        expect(isNice(steps(ticks)[0] ?? 0)).toBe(true);
      }
    }
  });

  it('reads counts in thousands and millions with the step’s decimals only', () => {
    const ops = niceAxis(17_190, 'count');
    expect(ops.ticks.map(ops.format)).toEqual(['0', '5k', '10k', '15k', '20k']);
    const few = niceAxis(3, 'count');
    expect(few.ticks.map(few.format)).toEqual(['0', '1', '2', '3']);
    const m = niceAxis(1_200_000, 'count');
    expect(m.ticks.map(m.format)).toEqual(['0', '0.5M', '1M', '1.5M']);
  });

  it('a short duration axis reads milliseconds, never "0.1s 0.1s 0.2s"', () => {
    const a = niceAxis(0.23, 'seconds');
    expect(a.ticks.map(a.format)).toEqual(['0', '100 ms', '200 ms', '300 ms']);
    const b = niceAxis(1.7, 'seconds');
    expect(b.ticks.map(b.format)).toEqual(['0', '0.5 s', '1 s', '1.5 s', '2 s']);
    const c = niceAxis(95, 'seconds');
    expect(c.ticks.map(c.format)).toEqual(['0', '30 s', '1m', '1m 30s', '2m']);
  });

  it('an all-zero series (a replica in step) gets one step of its unit, not "1 B"', () => {
    const lag = niceAxis(0, 'bytes');
    expect(lag.ticks.map(lag.format)).toEqual(['0', '1 KiB']);
    const none = niceAxis(Number.NaN, 'count');
    expect(none.ticks).toEqual([0, 1]);
  });
});

describe('timeTicks', () => {
  it('falls on whole clock steps inside the range', () => {
    const from = Date.UTC(2026, 0, 1, 10, 0, 3);
    const ticks = timeTicks(from, from + 15 * 60_000);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    for (const t of ticks) {
      expect(t).toBeGreaterThanOrEqual(from);
      expect(t % 60_000).toBe(0);
    }
    const s = steps(ticks);
    expect(new Set(s).size).toBe(1);
  });
});
