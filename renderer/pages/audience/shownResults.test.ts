import { describe, expect, it } from 'vitest';
import type { AudienceEvent } from '../../../app/schemas/audience';
import { EMPTY_RUN, foldRun } from './runView';
import { shownResults } from './shownResults';
import { report, strategy } from './reportTestKit';

const started: AudienceEvent = {
  kind: 'started',
  address: '127.0.0.1:6390',
  db: 0,
  normalized: 'gender=f',
  days: ['2024-01-01', '2024-01-02', '2024-01-03'],
  strategies: ['bitmap-lua', 'sets'],
  skipped: [{ name: 'zunionstore', reason: 'no per-user zsets' }],
  trials: 4,
  warmup: 1,
};

describe('shownResults', () => {
  it('shows nothing before the start or after a failure', () => {
    expect(shownResults(EMPTY_RUN)).toBeUndefined();
    const failed = foldRun(EMPTY_RUN, [started, { kind: 'failed', error: { code: 'REDIS', message: 'x' } }]);
    expect(shownResults(failed)).toBeUndefined();
  });

  it('while running: the first strategy’s answer, the pending ones, the skipped ones with their reason', () => {
    const lua = strategy('bitmap-lua', 6, { audienceSize: 77 });
    const r = shownResults(foldRun(EMPTY_RUN, [started, { kind: 'strategy', result: lua }]));
    expect(r).toMatchObject({
      state: 'running',
      audienceSize: 77,
      days: lua.days,
      pending: ['sets'],
      countsMatch: undefined,
      from: '2024-01-01',
      to: '2024-01-03',
    });
    expect(r?.strategies.map((s) => [s.name, s.skipped])).toEqual([
      ['bitmap-lua', undefined],
      ['zunionstore', 'no per-user zsets'],
    ]);
    expect(shownResults(foldRun(EMPTY_RUN, [started]))?.audienceSize).toBeUndefined();
  });

  it('once ended: the report, with its cross-check', () => {
    const rep = report({ countsMatch: false, mismatches: [{ strategy: 'sets', reference: 'bitmap-lua', expected: 1, got: 2 }] });
    const r = shownResults(foldRun(EMPTY_RUN, [started, { kind: 'cancelled', report: rep }]));
    expect(r).toMatchObject({ state: 'cancelled', countsMatch: false, audienceSize: 1200, pending: [] });
    expect(r?.mismatches).toHaveLength(1);
  });
});
