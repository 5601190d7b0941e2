import { describe, expect, it } from 'vitest';
import { shardGroups } from './shards';

const node = (address: string, role: string, master?: string) => ({ address, role, up: true, ...(master === undefined ? {} : { master }) });

describe('shardGroups', () => {
  it('groups a cluster by shard: each master with the replicas that name it', () => {
    const nodes = [node('a:1', 'master'), node('a:4', 'replica', 'a:1'), node('a:2', 'master'), node('a:5', 'replica', 'a:2'), node('a:6', 'replica', 'a:9')];
    expect(shardGroups(nodes).map((g) => g.map((n) => n.address))).toEqual([['a:1', 'a:4'], ['a:2', 'a:5'], ['a:6']]);
  });

  it('keeps a replication tree (one master) as one group', () => {
    const nodes = [node('m:1', 'master'), node('r:1', 'replica'), node('r:2', 'replica')];
    expect(shardGroups(nodes)).toEqual([nodes]);
    expect(shardGroups([])).toEqual([]);
  });
});
