import { describe, expect, it } from 'vitest';
import { mergeTopology } from './topologyMerge';
import type { TopologyEntry } from './types';

const M = '10.0.0.1:6379';
const R1 = '10.0.0.2:6379';
const R2 = '10.0.0.3:6379';

function known(...entries: TopologyEntry[]): Map<string, TopologyEntry> {
  return new Map(entries.map((e) => [e.address, e]));
}

describe('mergeTopology', () => {
  it('keeps a replica its master no longer lists, as down, under its last known master', () => {
    const before = known(
      { address: M, role: 'master', up: true },
      { address: R1, role: 'replica', master: M, up: true },
      { address: R2, role: 'replica', master: M, up: true },
    );
    const found = [
      { address: M, role: 'master', up: true },
      { address: R2, role: 'replica', master: M, up: true },
    ];
    expect(mergeTopology(found, before, new Map(), 64)).toEqual([
      { address: M, role: 'master', up: true },
      { address: R1, role: 'replica', master: M, up: false },
      { address: R2, role: 'replica', master: M, up: true },
    ]);
  });

  it('an unreachable start node keeps the role it had', () => {
    const before = known({ address: M, role: 'master', up: true });
    expect(mergeTopology([{ address: M, role: 'unknown', up: false, error: 'refused' }], before, new Map(), 64)).toEqual([
      { address: M, role: 'master', up: false },
    ]);
  });

  it('drops a node that turned out to be another name of a listed one, and respects maxNodes', () => {
    const before = known({ address: 'localhost:6379', role: 'master', up: true }, { address: R2, role: 'replica', master: M, up: false });
    const found = [{ address: M, role: 'master', up: true }];
    expect(mergeTopology(found, before, new Map([['localhost:6379', M]]), 64).map((n) => n.address)).toEqual([M, R2]);
    expect(mergeTopology(found, before, new Map([['localhost:6379', M]]), 1).map((n) => n.address)).toEqual([M]);
  });
});
