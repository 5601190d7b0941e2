import { describe, expect, it } from 'vitest';
import type { NodeSample } from '../../../app/schemas/metrics';
import { HistoryRing, historyCapacity, historyPoint } from './history';

function up(at: number, ops: number): NodeSample {
  return {
    address: 'a:1',
    at,
    up: true,
    traffic: { opsPerSec: ops, inputKbps: 1, outputKbps: 2, hitRatio: null, evictionsPerSec: 0, expirationsPerSec: 0 },
    memory: { used: 100 + at, peak: 0, rss: 0, fragmentation: 1, maxmemory: 0, percentOfMax: null },
    clients: { connected: 3, blocked: 0, rejected: 0 },
  };
}

describe('history capacity', () => {
  it('holds an hour of 1 s polls by default and scales with the interval', () => {
    expect(historyCapacity(3600, 1000)).toBe(3600);
    expect(historyCapacity(3600, 250)).toBe(14400);
    expect(historyCapacity(3600, 700)).toBe(5143);
  });
});

describe('HistoryRing', () => {
  it('keeps why a poll got no answer (slow, down) and where a new server run began, through a resize', () => {
    const ring = new HistoryRing('a:1', 10);
    ring.push(historyPoint(up(1, 50), null));
    ring.push(historyPoint({ address: 'a:1', at: 2, up: false, status: 'slow', error: 'no answer' }, null));
    ring.push(historyPoint({ address: 'a:1', at: 3, up: false, status: 'unreachable', error: 'refused' }, null));
    ring.push(historyPoint({ ...up(4, 60), restarted: true }, null));
    const h = ring.toNodeHistory();
    expect(h.gaps).toEqual([null, 'slow', 'down', null]);
    expect(h.restarts).toEqual([4]);
    expect(ring.resized(3).toNodeHistory()).toMatchObject({ at: [2, 3, 4], gaps: ['slow', 'down', null], restarts: [4] });
  });

  it('keeps only the newest `capacity` polls, oldest first, after many more pushes', () => {
    const ring = new HistoryRing('a:1', 5);
    for (let i = 1; i <= 10_003; i++) ring.push(historyPoint(up(i, i), null));
    expect(ring.length).toBe(5);
    const h = ring.toNodeHistory();
    expect(h.at).toEqual([9999, 10000, 10001, 10002, 10003]);
    expect(h.opsPerSec).toEqual([9999, 10000, 10001, 10002, 10003]);
    expect(h.usedMemory).toEqual([10099, 10100, 10101, 10102, 10103]);
    expect(h.clients).toEqual([3, 3, 3, 3, 3]);
  });

  it('records a down poll as a gap (null), not zeros', () => {
    const ring = new HistoryRing('a:1', 10);
    ring.push(historyPoint(up(1, 50), 7));
    ring.push(historyPoint({ address: 'a:1', at: 2, up: false, error: 'refused' }, null));
    ring.push(historyPoint(up(3, 60), 0));
    const h = ring.toNodeHistory();
    expect(h.at).toEqual([1, 2, 3]);
    expect(h.opsPerSec).toEqual([50, null, 60]);
    expect(h.usedMemory).toEqual([101, null, 103]);
    expect(h.lagBytes).toEqual([7, null, 0]);
  });

  it('resizing keeps the newest entries', () => {
    const ring = new HistoryRing('a:1', 4);
    for (let i = 1; i <= 6; i++) ring.push(historyPoint(up(i, i), null));
    expect(ring.resized(2).toNodeHistory().at).toEqual([5, 6]);
    expect(ring.resized(10).toNodeHistory().at).toEqual([3, 4, 5, 6]);
  });

  it('an empty ring gives empty columns', () => {
    expect(new HistoryRing('a:1', 3).toNodeHistory()).toEqual({
      address: 'a:1',
      at: [],
      opsPerSec: [],
      usedMemory: [],
      clients: [],
      inputKbps: [],
      outputKbps: [],
      lagBytes: [],
    });
  });
});
