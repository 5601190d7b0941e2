import { describe, expect, it } from 'vitest';
import type { MonitorLine } from '../../../app/schemas/monitor';
import { DelayWindow, WriteMatcher } from './writeMatcher';

const line = (ts: number, command: string, ...args: string[]): MonitorLine => ({
  ts,
  db: 0,
  client: '127.0.0.1:1',
  command,
  args,
  moreArgs: 0,
  truncated: false,
});

describe('WriteMatcher', () => {
  it('pairs a write with its copy on the replica, whichever arrives first', () => {
    const m = new WriteMatcher();
    expect(m.add('master', line(1000, 'SET', 'k', 'v'))).toBeUndefined();
    expect(m.add('replica', line(1000.25, 'SET', 'k', 'v'))).toBeCloseTo(0.25);
    // The replica's stream delivered first this time.
    expect(m.add('replica', line(2000.5, 'HSET', 'h', 'f', '1'))).toBeUndefined();
    expect(m.add('master', line(2000, 'HSET', 'h', 'f', '1'))).toBeCloseTo(0.5);
    expect(m.sizes()).toEqual({ master: 0, replica: 0 });
  });

  it('keys on DB, command and every argument', () => {
    const m = new WriteMatcher();
    m.add('master', line(1000, 'SET', 'k', 'v1'));
    expect(m.add('replica', line(1001, 'SET', 'k', 'v2'))).toBeUndefined();
    expect(m.add('replica', line(1001, 'SET', 'k v1'))).toBeUndefined();
    expect(m.add('replica', { ...line(1001, 'SET', 'k', 'v1'), db: 3 })).toBeUndefined();
    expect(m.add('replica', line(1002, 'SET', 'k', 'v1'))).toBe(2);
  });

  it('pairs each copy of a repeated write with its own write', () => {
    const m = new WriteMatcher();
    const delays: (number | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      m.add('master', line(1000 + i * 10, 'INCR', 'n'));
      delays.push(m.add('replica', line(1000 + i * 10 + 1, 'INCR', 'n')));
    }
    expect(delays).toEqual([1, 1, 1, 1, 1]);
  });

  it('does not drift when a copy was lost on the way', () => {
    const m = new WriteMatcher();
    m.add('master', line(1000, 'INCR', 'n'));
    // Its copy was dropped; the next write and its copy still pair with each other.
    m.add('master', line(1010, 'INCR', 'n'));
    expect(m.add('replica', line(1011, 'INCR', 'n'))).toBe(1);
    m.add('master', line(1020, 'INCR', 'n'));
    expect(m.add('replica', line(1022, 'INCR', 'n'))).toBe(2);
    expect(m.sizes()).toEqual({ master: 0, replica: 0 });
  });

  it('drops copies older than a new write when the write itself was lost', () => {
    const m = new WriteMatcher();
    m.add('replica', line(1001, 'INCR', 'n'));
    m.add('replica', line(1011, 'INCR', 'n'));
    expect(m.add('master', line(1010, 'INCR', 'n'))).toBe(1);
    expect(m.sizes().replica).toBe(0);
  });

  it('skips reads and lines it cannot compare whole', () => {
    const m = new WriteMatcher();
    expect(m.add('master', line(1000, 'GET', 'k'))).toBeUndefined();
    expect(m.add('master', { ...line(1000, 'SET', 'k', 'v'), truncated: true })).toBeUndefined();
    expect(m.sizes()).toEqual({ master: 0, replica: 0 });
  });

  it('stays bounded: by capacity and by age', () => {
    const m = new WriteMatcher({ capacity: 100, maxAgeMs: 1000 });
    for (let i = 0; i < 10_000; i++) m.add('master', line(1000 + i / 100, 'SET', `k${i}`, 'v'));
    expect(m.sizes().master).toBe(100);
    m.add('master', line(5000, 'SET', 'late', 'v'));
    expect(m.sizes().master).toBe(1);
    expect(m.add('replica', line(5000.1, 'SET', 'k9999', 'v'))).toBeUndefined();
  });
});

describe('DelayWindow', () => {
  it('reports latest, median and max over the last values', () => {
    const w = new DelayWindow(3);
    expect(w.summary()).toBeUndefined();
    for (const d of [9, 1, 2, 3]) w.push(d);
    expect(w.summary()).toEqual({ latest: 3, p50: 2, max: 3, window: 3, pairs: 4 });
  });
});

describe('WriteMatcher across a clock skew', () => {
  it('pairs a copy stamped slightly before its write, within the skew allowed', () => {
    const m = new WriteMatcher({ skewMs: 50 });
    m.add('master', line(1000, 'SET', 'k', 'v'));
    expect(m.add('replica', line(990, 'SET', 'k', 'v'))).toBe(-10);
    m.add('replica', line(1890, 'SET', 'k', 'v'));
    expect(m.add('master', line(1900, 'SET', 'k', 'v'))).toBe(-10);
    m.add('master', line(3000, 'SET', 'k', 'v'));
    expect(m.add('replica', line(2900, 'SET', 'k', 'v'))).toBeUndefined();
  });
});
