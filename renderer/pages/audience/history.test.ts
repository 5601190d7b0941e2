import { describe, expect, it } from 'vitest';
import { comparePair, historyRow, pickTwo } from './history';
import { report, strategy } from './reportTestKit';

describe('historyRow', () => {
  it('names the best strategy and every strategy’s p50, skipped ones and unasked ones apart', () => {
    const r = report({ strategies: [strategy('bitmap-lua', 6.2), strategy('sets', 500), strategy('zunionstore', 0, { runs: 0, skipped: 'no zsets' })] });
    const row = historyRow(r);
    expect(row).toMatchObject({
      date: '2024-05-01',
      time: '10:00:00',
      range: '2024-01-01 → 2024-01-02 (2 days)',
      target: '127.0.0.1:6390 db0',
      bestMs: '6.2 ms',
      bestName: 'bitmap-lua',
      audienceSize: '1,200',
    });
    expect(row.p50).toEqual({ 'bitmap-lua': '6.2 ms', 'bitmap-pipeline': '—', sets: '500 ms', zunionstore: 'skipped' });
  });
});

describe('pickTwo', () => {
  it('keeps at most the two latest picks, and unpicks a picked one', () => {
    expect(pickTwo([], 'a')).toEqual(['a']);
    expect(pickTwo(['a', 'b'], 'c')).toEqual(['b', 'c']);
    expect(pickTwo(['a', 'b'], 'a')).toEqual(['b']);
  });
});

describe('comparePair', () => {
  it('puts the older run first and says how the newer one compares, strategy by strategy', () => {
    const older = report({ id: 'old', finishedAt: '2024-05-01T10:00:00Z', strategies: [strategy('bitmap-lua', 6), strategy('sets', 500)] });
    const newer = report({
      id: 'new',
      finishedAt: '2024-05-02T10:00:00Z',
      to: '2024-01-05',
      strategies: [strategy('bitmap-lua', 12), strategy('sets', 250), strategy('zunionstore', 0, { runs: 0, skipped: 'no zsets' })],
    });
    const { a, b, rows } = comparePair(newer, older);
    expect([a.id, b.id]).toEqual(['old', 'new']);
    const by = Object.fromEntries(rows.map((r) => [r.label, r]));
    expect(by['bitmap-lua p50']).toEqual({ label: 'bitmap-lua p50', a: '6.0 ms', b: '12.0 ms', change: '2.0× slower' });
    expect(by['sets p50']?.change).toBe('2.0× faster');
    expect(by['zunionstore p50']).toMatchObject({ a: '—', b: 'skipped', change: '' });
    expect(by['bitmap-pipeline p50']).toBeUndefined();
    expect(by.range?.change).toBe('differs');
    expect(by.where?.change).toBe('same');
  });
});
