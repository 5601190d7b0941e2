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

/** A master stream opened at 0 (a read), and a matcher measuring delays up to 100 ms. */
function opened(): WriteMatcher {
  const m = new WriteMatcher({ maxDelayMs: 100 });
  m.add('master', line(0, 'PING'));
  return m;
}

describe('WriteMatcher', () => {
  it('pairs a write with its copy on the replica, whichever arrives first', () => {
    const m = opened();
    expect(m.add('master', line(1000, 'SET', 'k', 'v'))).toEqual([]);
    expect(m.add('replica', line(1000.25, 'SET', 'k', 'v'))).toEqual([]);
    // Paired once the master's stream has come past the copy's time: no other write can claim it.
    expect(m.add('master', line(1001, 'GET', 'k'))).toEqual([0.25]);
    // The replica's stream delivered first this time: the copy waits for the master's stream,
    // and in step with it, pairs with the first identical write after the last pair.
    expect(m.add('replica', line(2000.5, 'HSET', 'h', 'f', '1'))).toEqual([]);
    expect(m.add('master', line(2000, 'HSET', 'h', 'f', '1'))).toEqual([0.5]);
  });

  it('keys on DB, command and every argument', () => {
    const m = opened();
    m.add('master', line(1000, 'SET', 'k', 'v1'));
    m.add('master', line(1003, 'GET', 'k'));
    expect(m.add('replica', line(1001, 'SET', 'k', 'v2'))).toEqual([]);
    expect(m.add('replica', line(1001, 'SET', 'k v1'))).toEqual([]);
    expect(m.add('replica', { ...line(1001, 'SET', 'k', 'v1'), db: 3 })).toEqual([]);
    expect(m.add('replica', line(1002, 'SET', 'k', 'v1'))).toEqual([2]);
  });

  it('pairs each copy of a repeated write with its own write, however far behind the replica is', () => {
    const m = opened();
    const delays: number[] = [];
    // INCR every 10 ms, applied 35 ms later on the replica, with a unique SET now and then.
    const writes = Array.from({ length: 40 }, (_, i) => ({ t: 200 + i * 10, l: i % 8 === 0 ? ['SET', `u${i}`, 'v'] : ['INCR', 'n'] }));
    const events = [
      ...writes.map((w) => ({ side: 'master' as const, t: w.t, l: w.l })),
      ...writes.map((w) => ({ side: 'replica' as const, t: w.t + 35, l: w.l })),
    ].sort((a, b) => a.t - b.t);
    for (const e of events) delays.push(...m.add(e.side, line(e.t, e.l[0] ?? '', ...e.l.slice(1))));
    expect(delays.length).toBeGreaterThan(20);
    expect(new Set(delays)).toEqual(new Set([35]));
  });

  it('never pairs a copy with a write stamped after it: no delay is negative', () => {
    const m = opened();
    m.add('master', line(1000, 'SET', 'k', 'v'));
    expect(m.add('replica', line(999, 'SET', 'k', 'v'))).toEqual([]);
    m.add('master', line(1100, 'GET', 'k'));
    expect(m.sizes().replica).toBe(0);
  });

  it('does not take a copy of a write made before the master stream opened for a later identical write', () => {
    const m = new WriteMatcher({ maxDelayMs: 100 });
    // The master stream opens at 1000; the replica's first INCR copy is of a write at 950.
    m.add('master', line(1000, 'INCR', 'n'));
    expect(m.add('replica', line(1010, 'INCR', 'n'))).toEqual([]);
    m.add('master', line(1060, 'INCR', 'n'));
    expect(m.add('replica', line(1070, 'INCR', 'n'))).toEqual([]);
  });

  it('waits for a new anchor after lines were lost', () => {
    const m = opened();
    m.add('master', line(200, 'SET', 'a', '1'));
    expect(m.add('replica', line(205, 'SET', 'a', '1'))).toEqual([]);
    // The master went quiet: its next heartbeat but one says nothing more is coming for that copy.
    expect(m.masterHeartbeat()).toEqual([]);
    expect(m.masterHeartbeat()).toEqual([5]);
    m.add('master', line(210, 'INCR', 'n'));
    m.add('master', line(220, 'INCR', 'n'));
    m.resync();
    // Two INCRs could be this copy's write: no pair until a copy has one candidate.
    expect(m.add('replica', line(225, 'INCR', 'n'))).toEqual([]);
    m.add('master', line(230, 'SET', 'b', '1'));
    m.add('master', line(240, 'GET', 'b'));
    expect(m.add('replica', line(235, 'SET', 'b', '1'))).toEqual([5]);
    expect(m.synced).toBe(true);
  });

  it('skips reads and lines it cannot compare whole', () => {
    const m = opened();
    expect(m.add('master', line(1000, 'GET', 'k'))).toEqual([]);
    expect(m.add('master', { ...line(1000, 'SET', 'k', 'v'), truncated: true })).toEqual([]);
    expect(m.sizes()).toEqual({ master: 0, replica: 0 });
  });

  it('stays bounded: by capacity and by age', () => {
    const m = new WriteMatcher({ capacity: 100, maxDelayMs: 1000 });
    for (let i = 0; i < 10_000; i++) m.add('master', line(1000 + i / 100, 'SET', `k${i}`, 'v'));
    expect(m.sizes().master).toBe(100);
    m.add('master', line(5000, 'SET', 'late', 'v'));
    expect(m.add('replica', line(5000.1, 'SET', 'k9999', 'v'))).toEqual([]);
    expect(m.sizes().master).toBe(1);
  });
});

describe('DelayWindow', () => {
  it('reports latest, median and max over the last values', () => {
    const w = new DelayWindow(3);
    expect(w.summary()).toBeUndefined();
    for (const d of [9, 1, 2, 3]) w.push(d);
    expect(w.summary()).toEqual({ latest: 3, min: 1, p50: 2, max: 3, window: 3, pairs: 4 });
  });
});
