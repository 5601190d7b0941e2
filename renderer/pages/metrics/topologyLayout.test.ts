import { describe, expect, it } from 'vitest';
import type { TopoNode } from '../../lib/nodes';
import { DEFAULT_SIZE, layoutTopology } from './topologyLayout';

const n = (address: string, master?: string): TopoNode =>
  master === undefined ? { address, role: 'master', up: true } : { address, role: 'slave', master, up: true };

describe('topology layout', () => {
  it('puts the master left, centred on its replicas stacked to the right', () => {
    const l = layoutTopology([n('m:1'), n('r1:1', 'm:1'), n('r2:1', 'm:1'), n('r3:1', 'm:1')]);
    const by = new Map(l.boxes.map((b) => [b.address, b]));
    expect(by.get('m:1')?.depth).toBe(0);
    expect(['r1:1', 'r2:1', 'r3:1'].map((a) => by.get(a)?.depth)).toEqual([1, 1, 1]);
    expect(by.get('m:1')?.y).toBe(by.get('r2:1')?.y);
    expect(l.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['m:1>r1:1', 'm:1>r2:1', 'm:1>r3:1']);
    expect(l.height).toBe(DEFAULT_SIZE.pad * 2 + 3 * DEFAULT_SIZE.pitch - (DEFAULT_SIZE.pitch - DEFAULT_SIZE.boxH));
  });

  it('gives a chained replica its own column', () => {
    const l = layoutTopology([n('m:1'), n('r:1', 'm:1'), n('rr:1', 'r:1')]);
    expect(l.boxes.map((b) => [b.address, b.depth])).toEqual([
      ['m:1', 0],
      ['r:1', 1],
      ['rr:1', 2],
    ]);
    expect(l.width).toBe(DEFAULT_SIZE.pad * 2 + 3 * DEFAULT_SIZE.boxW + 2 * DEFAULT_SIZE.gapX);
  });

  it('draws a master that no sample covers as a phantom box', () => {
    const l = layoutTopology([n('r:1', 'gone:1')]);
    const phantom = l.boxes.find((b) => b.address === 'gone:1');
    expect(phantom?.phantom).toBe(true);
    expect(l.edges).toHaveLength(1);
  });

  it('survives a replication cycle', () => {
    const l = layoutTopology([n('a:1', 'b:1'), n('b:1', 'a:1')]);
    expect(l.boxes).toHaveLength(2);
    expect(l.edges).toHaveLength(1);
  });

  it('is empty without nodes', () => {
    expect(layoutTopology([]).boxes).toEqual([]);
  });
});
