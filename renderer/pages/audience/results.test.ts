import { describe, expect, it } from 'vitest';
import { bestOf, dayPoints, latencyBars, mismatchText, strategyRows } from './results';
import { strategy } from './reportTestKit';

const skipped = strategy('zunionstore', 0, { skipped: 'no per-user zsets (user:{id}:days)', runs: 0 });

describe('strategy results', () => {
  it('finds the fastest p50 among the strategies that ran', () => {
    expect(bestOf([strategy('sets', 500), strategy('bitmap-pipeline', 11), skipped])?.name).toBe('bitmap-pipeline');
    expect(bestOf([skipped])).toBeUndefined();
  });

  it('formats a row per strategy, dashes and the reason for a skipped one', () => {
    const rows = strategyRows([strategy('bitmap-lua', 6), strategy('sets', 510, { matches: false }), skipped]);
    expect(rows[0]).toMatchObject({ name: 'bitmap-lua', p50Ms: '6.0 ms', minMs: '4.8 ms', p95Ms: '9.0 ms', vsBest: '1.0×', matches: true, bytesOut: '420 B' });
    expect(rows[1]).toMatchObject({ vsBest: '85×', matches: false, skipped: undefined });
    expect(rows[2]).toMatchObject({ skipped: 'no per-user zsets (user:{id}:days)', p50Ms: '—', matches: undefined });
  });

  it('shows a dash for server time the server would not tell (commandstats refused: -1)', () => {
    expect(strategyRows([strategy('sets', 5, { serverMs: -1 })])[0]?.serverMs).toBe('—');
  });

  it('draws p50 bars with min and p95 as whiskers, for strategies that ran', () => {
    const bars = latencyBars([strategy('bitmap-lua', 10, { minMs: 7, p95Ms: 16 }), skipped]);
    expect(bars).toHaveLength(1);
    expect(bars[0]).toMatchObject({ label: 'bitmap-lua', value: 10, err: [3, 6] });
    expect(bars[0]?.figure).toBe('10.0 ms (7.0–16.0)');
  });
});

describe('days and mismatches', () => {
  it('labels days by month and day', () => {
    expect(dayPoints([{ day: '2024-01-15', count: 3 }])).toEqual([{ day: '2024-01-15', label: '01-15', count: 3 }]);
  });

  it('says which strategy differs, where, and both figures', () => {
    expect(mismatchText({ strategy: 'sets', reference: 'bitmap-lua', day: '2024-01-03', expected: 1200, got: 1199 })).toBe(
      'sets gave 1,199 for the count on 2024-01-03; bitmap-lua gave 1,200',
    );
    expect(mismatchText({ strategy: 'zunionstore', reference: 'bitmap-lua', expected: 10, got: 12 })).toContain('the audience size');
  });
});
