import { describe, expect, it } from 'vitest';
import { EMPTY_METRICS, reduceMetrics } from './metricsState';
import { pageModel } from './pageModel';
import { down, master, replica } from '../../lib/nodesTestKit';

const B = { windowMs: 60_000, maxPoints: 100 };
const state = reduceMetrics(
  EMPTY_METRICS,
  [
    {
      kind: 'samples',
      at: 1000,
      samples: [replica('r2:1', 'm:1'), master('m:1', [{ address: 'r1:1', lagBytes: 5 }, { address: 'r2:1' }]), replica('r1:1', 'm:1', 'up', 1000)],
    },
    { kind: 'samples', at: 2000, samples: [replica('r2:1', 'm:1'), master('m:1', [{ address: 'r1:1', lagBytes: 5 }]), down('r1:1')] },
  ],
  B,
);

describe('page model', () => {
  it('lists the master first, gives each node a colour, and selects the profile node', () => {
    const m = pageModel(state, 'r2:1', undefined);
    expect(m.order).toEqual(['m:1', 'r1:1', 'r2:1']);
    expect(new Set(m.colors.values()).size).toBe(3);
    expect(m.selected).toBe('r2:1');
    expect(m.own).toBe('r2:1');
    expect(m.unreachableCount).toBe(1);
    expect(m.slowCount).toBe(0);
  });

  it("keeps the user's pick while that node exists, else falls back to the default", () => {
    expect(pageModel(state, 'r2:1', 'm:1').selected).toBe('m:1');
    expect(pageModel(state, 'nowhere:1', 'gone:1').selected).toBe('m:1');
  });

  it('describes a down replica card with its role and how long it has been down', () => {
    const card = pageModel(state, 'm:1', undefined).cards.find((c) => c.address === 'r1:1');
    expect(card?.role).toBe('slave');
    expect(card?.link?.state).toBe('down');
    expect(card?.downForSeconds).toBe(1);
  });
});
