import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from './latencyHistogram';

describe('LatencyHistogram', () => {
  it('is exact below 64 µs', () => {
    const h = new LatencyHistogram();
    for (let us = 1; us <= 50; us++) h.record(us);
    expect(h.percentile(50)).toBe(25);
    expect(h.percentile(100)).toBe(50);
    expect(h.count).toBe(50);
  });

  it('keeps every percentile within 1/32 of the true value over six orders of magnitude', () => {
    const h = new LatencyHistogram();
    const values: number[] = [];
    // A deterministic spread from 1 µs to ~10 s, log-uniform.
    for (let i = 0; i < 20_000; i++) values.push(Math.round(10 ** ((7 * ((i * 7919) % 20_000)) / 20_000)));
    for (const v of values) h.record(v);
    values.sort((a, b) => a - b);
    for (const p of [1, 10, 50, 90, 95, 99, 99.9]) {
      const truth = values[Math.ceil((p / 100) * values.length) - 1]!;
      const got = h.percentile(p);
      expect(got).toBeGreaterThanOrEqual(truth);
      expect(got).toBeLessThanOrEqual(truth * (1 + 1 / 32) + 1);
    }
    expect(h.percentile(100)).toBe(values.at(-1));
  });

  it('reports ms percentiles in order with the exact maximum', () => {
    const h = new LatencyHistogram();
    for (let i = 0; i < 1000; i++) h.recordMs(0.1 + (i % 100) * 0.01);
    h.recordMs(250.123);
    const p = h.percentiles();
    expect(p.p50Ms).toBeLessThanOrEqual(p.p95Ms);
    expect(p.p95Ms).toBeLessThanOrEqual(p.p99Ms);
    expect(p.p99Ms).toBeLessThan(p.maxMs);
    expect(p.maxMs).toBe(250.123);
    // The 501st of 1,001 values is 0.6 ms.
    expect(p.p50Ms).toBeGreaterThanOrEqual(0.6);
    expect(p.p50Ms).toBeLessThanOrEqual(0.6 * (1 + 1 / 32));
  });

  it('is empty until something is recorded, and clamps absurd values', () => {
    const h = new LatencyHistogram();
    expect(h.percentiles()).toEqual({ p50Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 });
    h.record(-5);
    h.record(1e12);
    expect(h.percentile(0)).toBe(0);
    expect(h.percentile(100)).toBe(2 ** 32 - 1);
  });
});
