import { describe, expect, it } from 'vitest';
import type { NodeHistory } from '../../../app/schemas/metrics';
import { down, master, replica } from '../../lib/nodesTestKit';
import { appendSamples, lagByReplica, mergeHistory, pointsFromHistory, trimPoints, type NodePoint, type SeriesStore } from './timeSeries';

const B = { windowMs: 10_000, maxPoints: 1000 };

function history(address: string, at: number[], ops: (number | null)[]): NodeHistory {
  const n = at.map(() => null);
  return { address, at, opsPerSec: ops, usedMemory: ops, clients: n, inputKbps: n, outputKbps: n, lagBytes: n };
}

const ts = (store: SeriesStore, a: string) => (store.get(a) ?? []).map((p) => p.t);
const ops = (store: SeriesStore, a: string) => (store.get(a) ?? []).map((p) => p.ops);

describe('time series', () => {
  it('reads columnar history as points, nulls (down) kept as gaps', () => {
    const pts = pointsFromHistory(history('a:1', [1000, 2000, 3000], [5, null, 7]));
    expect(pts.map((p) => [p.t, p.ops, p.mem])).toEqual([
      [1000, 5, 5],
      [2000, null, null],
      [3000, 7, 7],
    ]);
  });

  it('appends a tick to history, one point per node', () => {
    let s = mergeHistory(new Map(), [history('a:1', [1000, 2000], [1, 2])], B);
    s = appendSamples(s, [master('a:1'), replica('b:1', 'a:1')], 3000, B);
    expect(ts(s, 'a:1')).toEqual([1000, 2000, 3000]);
    expect(ops(s, 'a:1')).toEqual([1, 2, 100]);
    expect(ts(s, 'b:1')).toEqual([3000]);
  });

  it('records a down node as nulls so the chart shows a gap', () => {
    const s = appendSamples(new Map(), [down('a:1')], 1000, B);
    expect(s.get('a:1')?.[0]).toMatchObject({ ops: null, mem: null, clients: null, lag: null });
  });

  it('ignores a tick it has already seen', () => {
    let s = appendSamples(new Map(), [master('a:1')], 1000, B);
    s = appendSamples(s, [master('a:1')], 1000, B);
    s = appendSamples(s, [master('a:1')], 500, B);
    expect(ts(s, 'a:1')).toEqual([1000]);
  });

  it('merges the history sent again after a resubscribe without duplicating points', () => {
    let s = mergeHistory(new Map(), [history('a:1', [1000, 2000], [1, 2])], B);
    s = appendSamples(s, [master('a:1')], 3000, B);
    s = mergeHistory(s, [history('a:1', [2000, 3000, 4000], [2, 3, 4])], B);
    expect(ts(s, 'a:1')).toEqual([1000, 2000, 3000, 4000]);
    expect(ops(s, 'a:1')).toEqual([1, 2, 3, 4]);
  });

  it('keeps only the window before the newest point, for every node', () => {
    let s: SeriesStore = new Map();
    for (let t = 0; t <= 30_000; t += 1000) s = appendSamples(s, [master('a:1')], t, B);
    expect(ts(s, 'a:1')[0]).toBe(20_000);
    expect(s.get('a:1')).toHaveLength(11);
  });

  it('forgets a node that stopped appearing once its points age out', () => {
    let s = appendSamples(new Map(), [master('a:1'), replica('gone:1', 'a:1')], 0, B);
    for (let t = 1000; t <= 12_000; t += 1000) s = appendSamples(s, [master('a:1')], t, B);
    expect(s.has('gone:1')).toBe(false);
  });

  it('never keeps more than maxPoints per node', () => {
    const pts: NodePoint[] = Array.from({ length: 50 }, (_, t) => ({ t, ops: t, mem: 0, clients: 0, netIn: 0, netOut: 0, lag: null }));
    const kept = trimPoints(pts, 49, { windowMs: 1e9, maxPoints: 10 });
    expect(kept).toHaveLength(10);
    expect(kept[0]?.t).toBe(40);
  });

  it('takes a replica lag from its master, and none for the master itself', () => {
    const samples = [master('a:1', [{ address: 'b:1', lagBytes: 4096 }]), replica('b:1', 'a:1')];
    expect(lagByReplica(samples).get('b:1')).toBe(4096);
    const s = appendSamples(new Map(), samples, 1000, B);
    expect(s.get('b:1')?.[0]?.lag).toBe(4096);
    expect(s.get('a:1')?.[0]?.lag).toBeNull();
  });
});
