import { describe, expect, it } from 'vitest';
import type { AudienceEvent } from '../../../app/schemas/audience';
import { EMPTY_RUN, foldRun, fractionOf, stepText, type ProgressEvent } from './runView';
import { report, strategy } from './reportTestKit';

const started: AudienceEvent = {
  kind: 'started',
  address: '127.0.0.1:6390',
  db: 0,
  normalized: 'gender=f',
  days: ['2024-01-01', '2024-01-02'],
  strategies: ['bitmap-lua', 'sets'],
  skipped: [{ name: 'zunionstore', reason: 'no per-user zsets' }],
  trials: 4,
  warmup: 1,
};

const progress = (p: Partial<ProgressEvent>): ProgressEvent => ({
  kind: 'progress',
  strategy: 'bitmap-lua',
  phase: 'timed',
  run: 1,
  runs: 4,
  elapsedMs: 10,
  ...p,
});

describe('foldRun', () => {
  it('collects strategies once and keeps the newest progress under replay', () => {
    const lua = strategy('bitmap-lua', 6);
    const events: AudienceEvent[] = [started, progress({ elapsedMs: 20, run: 3 }), { kind: 'strategy', result: lua }];
    const once = foldRun(EMPTY_RUN, events);
    const twice = foldRun(once, [started, progress({ elapsedMs: 5, run: 1 }), { kind: 'strategy', result: lua }]);
    expect(twice).toBe(once);
    expect(twice.results).toEqual([lua]);
    expect(twice.progress?.run).toBe(3);
  });

  it('takes the report at the end and ignores anything after it', () => {
    const r = report();
    const v = foldRun(EMPTY_RUN, [started, { kind: 'done', report: r }, { kind: 'failed', error: { code: 'REDIS', message: 'late' } }]);
    expect(v.outcome).toBe('done');
    expect(v.results).toBe(r.strategies);
    expect(v.error).toBeUndefined();
  });

  it('keeps a failure with its position', () => {
    const v = foldRun(EMPTY_RUN, [{ kind: 'failed', error: { code: 'VALIDATION', message: 'bad', field: 'where', position: 4 } }]);
    expect(v).toMatchObject({ outcome: 'failed', error: { position: 4 } });
  });
});

describe('fractionOf', () => {
  it('counts warm-up and timed runs of every strategy that runs', () => {
    const s = foldRun(EMPTY_RUN, [started]);
    expect(fractionOf(EMPTY_RUN)).toBeUndefined();
    expect(fractionOf(s)).toBe(0);
    // 2 strategies × (1 warm-up + 4 timed) = 10 runs.
    expect(fractionOf(foldRun(s, [progress({ phase: 'warmup', run: 1, runs: 1 })]))).toBeCloseTo(0.1);
    expect(fractionOf(foldRun(s, [progress({ run: 2 })]))).toBeCloseTo(0.3);
    const luaDone = foldRun(s, [progress({ run: 4 }), { kind: 'strategy', result: strategy('bitmap-lua', 6) }]);
    expect(fractionOf(luaDone)).toBeCloseTo(0.5);
    expect(fractionOf(foldRun(luaDone, [progress({ strategy: 'sets', run: 2, elapsedMs: 99 })]))).toBeCloseTo(0.8);
    expect(fractionOf(foldRun(s, [{ kind: 'done', report: report() }]))).toBe(1);
  });

  it('says the step in words', () => {
    expect(stepText(progress({ run: 3, runs: 10 }))).toBe('bitmap-lua · timed run 3 of 10');
    expect(stepText(progress({ phase: 'warmup', strategy: 'sets', run: 1, runs: 2 }))).toBe('sets · warm-up run 1 of 2');
  });
});
