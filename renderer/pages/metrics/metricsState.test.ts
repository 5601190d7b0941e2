import { describe, expect, it } from 'vitest';
import type { MetricsEvent, NodeHistory } from '../../../app/schemas/metrics';
import { EMPTY_METRICS, reduceMetrics } from './metricsState';
import { down, master, replica } from '../../lib/nodesTestKit';

const B = { windowMs: 60_000, maxPoints: 100 };

function history(address: string, at: number[]): NodeHistory {
  const v = at.map((t) => t / 1000);
  return { address, at, opsPerSec: v, usedMemory: v, clients: v, inputKbps: v, outputKbps: v, lagBytes: at.map(() => null) };
}

const tick = (at: number, samples = [master('m:1', [{ address: 'r:1' }]), replica('r:1', 'm:1')]): MetricsEvent => ({
  kind: 'samples',
  at,
  samples,
});

describe('reduceMetrics', () => {
  it('folds history, then topology, then ticks, in the order the stream sends them', () => {
    const s = reduceMetrics(
      EMPTY_METRICS,
      [
        { kind: 'history', nodes: [history('m:1', [1000, 2000]), history('r:1', [1000, 2000])] },
        {
          kind: 'topology',
          at: 2500,
          nodes: [
            { address: 'm:1', role: 'master', up: true },
            { address: 'r:1', role: 'slave', master: 'm:1', up: true },
          ],
        },
        tick(3000),
      ],
      B,
    );
    expect(s.series.get('m:1')?.map((p) => p.t)).toEqual([1000, 2000, 3000]);
    expect(s.topology).toHaveLength(2);
    expect(s.samples.map((x) => x.address)).toEqual(['m:1', 'r:1']);
    expect(s.at).toBe(3000);
  });

  it("keeps a down node's last sample while up, and forgets nodes no longer polled", () => {
    let s = reduceMetrics(EMPTY_METRICS, [tick(1000)], B);
    s = reduceMetrics(s, [tick(2000, [master('m:1'), down('r:1')])], B);
    expect(s.lastUp.get('r:1')?.up).toBe(true);
    expect(s.samples.find((x) => x.address === 'r:1')?.up).toBe(false);
    s = reduceMetrics(s, [tick(3000, [master('m:1')])], B);
    expect(s.lastUp.has('r:1')).toBe(false);
  });

  it('does not let an older tick (a replay) replace the latest samples', () => {
    let s = reduceMetrics(EMPTY_METRICS, [tick(5000, [master('m:1')])], B);
    s = reduceMetrics(s, [tick(4000, [down('m:1')])], B);
    expect(s.samples[0]?.up).toBe(true);
    expect(s.at).toBe(5000);
  });

  it('collects alert events from the watch stream', () => {
    const s = reduceMetrics(
      EMPTY_METRICS,
      [{ kind: 'alert', alert: { id: 'x', kind: 'evictions', severity: 'warning', address: 'm:1', message: 'evicting', since: 1 } }],
      B,
    );
    expect([...s.alerts.keys()]).toEqual(['x']);
  });

  it('returns the same alert map when a batch holds no alert', () => {
    const s0 = reduceMetrics(EMPTY_METRICS, [tick(1000)], B);
    const s1 = reduceMetrics(s0, [tick(2000)], B);
    expect(s1.alerts).toBe(s0.alerts);
  });
});
