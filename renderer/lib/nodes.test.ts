import { describe, expect, it } from 'vitest';
import { orderNodes, pickDefaultNode, profileAddress, roleLabel, sameAddress, topologyOf } from './nodes';
import { down, master, replica } from './nodesTestKit';

describe('nodes', () => {
  it("defaults to the profile's own node, even when it is a replica", () => {
    const samples = [master('10.0.0.1:6379'), replica('10.0.0.2:6379', '10.0.0.1:6379')];
    expect(pickDefaultNode(samples, '10.0.0.2:6379')).toBe('10.0.0.2:6379');
  });

  it('defaults to the master when the profile names a node the server reports otherwise', () => {
    const samples = [replica('10.0.0.2:6379', '10.0.0.1:6379'), master('10.0.0.1:6379')];
    expect(pickDefaultNode(samples, 'redis.internal:6379')).toBe('10.0.0.1:6379');
  });

  it('prefers the root master over an intermediate one, and falls back to the first node', () => {
    const mid = { ...master('10.0.0.3:6379'), replication: { ...master('x:1').replication!, masterAddress: '10.0.0.1:6379' } };
    expect(pickDefaultNode([mid, master('10.0.0.1:6379')], 'nope:1')).toBe('10.0.0.1:6379');
    expect(pickDefaultNode([down('a:1'), down('b:1')], 'nope:1')).toBe('a:1');
    expect(pickDefaultNode([], 'nope:1')).toBeUndefined();
  });

  it('matches a down profile node too, so its error is shown', () => {
    expect(pickDefaultNode([master('a:1'), down('127.0.0.1:6390')], '127.0.0.1:6390')).toBe('127.0.0.1:6390');
  });

  it('compares addresses with IPv6 brackets and case ignored', () => {
    expect(profileAddress({ host: '::1', port: 6379 })).toBe('[::1]:6379');
    expect(sameAddress('[::1]:6379', '::1:6379')).toBe(true);
    expect(sameAddress('Redis-A:6379', 'redis-a:6379')).toBe(true);
  });

  it("keeps a cluster master's slots and flags from the topology when its sample arrives", () => {
    const topology = [{ address: '10.0.0.1:7000', role: 'master', up: true, slots: [[0, 5460]] as [number, number][], flags: ['myself', 'master'] }];
    const [node] = topologyOf(topology, [master('10.0.0.1:7000')]);
    expect(node).toMatchObject({ address: '10.0.0.1:7000', role: 'master', up: true, slots: [[0, 5460]], flags: ['myself', 'master'] });
    expect(node).not.toHaveProperty('master');
  });

  it('calls slaves replicas', () => {
    expect(roleLabel('slave')).toBe('replica');
    expect(roleLabel('master')).toBe('master');
    expect(roleLabel(undefined)).toBe('unknown');
  });

  it('orders a master before its replicas and a chain depth-first', () => {
    const order = orderNodes([
      { address: 'r2:1', role: 'slave', master: 'm:1', up: true },
      { address: 'rr:1', role: 'slave', master: 'r1:1', up: true },
      { address: 'm:1', role: 'master', up: true },
      { address: 'r1:1', role: 'slave', master: 'm:1', up: true },
    ]);
    expect(order).toEqual(['m:1', 'r1:1', 'rr:1', 'r2:1']);
  });

  it('orders replica addresses numerically', () => {
    const order = orderNodes([
      { address: 'm:6379', role: 'master', up: true },
      { address: 'm:6390', role: 'slave', master: 'm:6379', up: true },
      { address: 'm:6381', role: 'slave', master: 'm:6379', up: true },
    ]);
    expect(order).toEqual(['m:6379', 'm:6381', 'm:6390']);
  });

  it('still lists nodes caught in a replication cycle', () => {
    const order = orderNodes([
      { address: 'a:1', role: 'slave', master: 'b:1', up: true },
      { address: 'b:1', role: 'slave', master: 'a:1', up: true },
    ]);
    expect(order.sort()).toEqual(['a:1', 'b:1']);
  });

  it('completes the topology from samples and keeps a down node where the topology put it', () => {
    const topo = topologyOf(
      [
        { address: 'm:1', role: 'master', up: true },
        { address: 'r:1', role: 'slave', master: 'm:1', up: true },
      ],
      [master('m:1'), down('r:1'), replica('new:1', 'm:1')],
    );
    expect(topo).toEqual([
      { address: 'm:1', role: 'master', up: true },
      { address: 'r:1', role: 'slave', master: 'm:1', up: false },
      { address: 'new:1', role: 'slave', master: 'm:1', up: true },
    ]);
  });

  it('places a down node by its last sample while up when no topology came yet', () => {
    const lastUp = new Map([['r:1', replica('r:1', 'm:1')]]);
    expect(topologyOf(undefined, [master('m:1'), down('r:1')], lastUp)).toEqual([
      { address: 'm:1', role: 'master', up: true },
      { address: 'r:1', role: 'slave', master: 'm:1', up: false },
    ]);
    expect(topologyOf(undefined, [master('m:1', [{ address: 'r:1' }]), down('r:1')])[1]).toEqual({
      address: 'r:1',
      role: 'slave',
      master: 'm:1',
      up: false,
    });
  });
});
