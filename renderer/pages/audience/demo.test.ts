import { describe, expect, it } from 'vitest';
import { DemoDataOptions, type DemoEvent, type DemoReport } from '../../../app/schemas/audience';
import { DEFAULT_DEMO, demoControlOf, demoFraction, EMPTY_DEMO, foldDemo, toDemoOptions } from './demo';

const demoReport: DemoReport = {
  address: '127.0.0.1:6390',
  db: 0,
  users: 2000,
  days: 14,
  seed: 7,
  first: '2024-01-01',
  last: '2024-01-14',
  layouts: ['bitmap', 'set', 'zset'],
  keys: 3100,
  commands: 9000,
  bytes: 1_200_000,
  seconds: 0.8,
};

const started: DemoEvent = { kind: 'started', address: '127.0.0.1:6390', db: 0, users: 2000, days: 14, layouts: ['bitmap'], total: 400 };
const progress = (done: number, elapsedMs: number): DemoEvent => ({ kind: 'progress', done, total: 400, commandsPerSec: 1000, elapsedMs });

describe('toDemoOptions', () => {
  it('sends the typed size, the DB and the overwrite choice in the contract’s shape', () => {
    const o = toDemoOptions('p1', { db: 3 }, { users: '2000', days: '14', seed: '7', overwrite: true });
    expect(o).toEqual({ profileId: 'p1', db: 3, users: 2000, days: 14, seed: 7, overwrite: true });
    expect(DemoDataOptions.safeParse(o).success).toBe(true);
    expect(DemoDataOptions.safeParse(toDemoOptions('p1', {}, DEFAULT_DEMO)).success).toBe(true);
  });

  it('leaves empty numbers out and sends junk for the contract to name', () => {
    const o = toDemoOptions('p1', {}, { ...DEFAULT_DEMO, users: '', days: 'many' });
    expect('users' in o).toBe(false);
    const parsed = DemoDataOptions.safeParse(o);
    expect(parsed.error?.issues.map((i) => demoControlOf(i.path.join('.')))).toEqual(['days']);
  });
});

describe('foldDemo', () => {
  it('keeps the newest progress, the end once, and nothing after it', () => {
    let v = foldDemo(EMPTY_DEMO, [started, progress(200, 50), progress(100, 20)]);
    expect(v.progress?.done).toBe(200);
    expect(demoFraction(v)).toBe(0.5);
    v = foldDemo(v, [
      { kind: 'done', report: demoReport },
      { kind: 'failed', error: { code: 'REDIS', message: 'late' } },
    ]);
    expect(v.outcome).toBe('done');
    expect(v.report).toBe(demoReport);
    expect(demoFraction(v)).toBe(1);
    expect(demoFraction(EMPTY_DEMO)).toBeUndefined();
  });
});
