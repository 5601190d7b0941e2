import { describe, expect, it } from 'vitest';
import { parseClusterNodes } from './clusterNodes';

// Shaped like Redis 7.0's CLUSTER NODES after a failover: the first master failed, its replica took over.
const NODES = [
  'aaa 127.0.0.1:7000@17000 master,fail - 1 2 1 disconnected',
  'bbb 127.0.0.1:7001@17001,cache-b.internal myself,master - 0 0 2 connected 5461-10922 [10923->-ccc]',
  'ccc 127.0.0.1:7002@17002 master - 0 3 3 connected 10923-16383',
  'ddd 127.0.0.1:7003@17003 master - 0 4 7 connected 0-5459 5460',
  'eee 127.0.0.1:7004@17004 slave bbb 0 5 2 connected',
  'fff ::1:7005@17005 slave,fail? ccc 0 6 3 connected',
  '',
].join('\n');

describe('parseClusterNodes', () => {
  const nodes = parseClusterNodes(NODES);

  it('reads each node address without bus port or hostname, its role, and whether it is healthy', () => {
    expect(nodes.map((n) => [n.address, n.role, n.healthy])).toEqual([
      ['127.0.0.1:7000', 'master', false],
      ['127.0.0.1:7001', 'master', true],
      ['127.0.0.1:7002', 'master', true],
      ['127.0.0.1:7003', 'master', true],
      ['127.0.0.1:7004', 'replica', true],
      ['[::1]:7005', 'replica', false],
    ]);
  });

  it('gives masters their served slot ranges (migrating slots left out) and replicas their master address', () => {
    expect(nodes[1]?.slots).toEqual([[5461, 10922]]);
    expect(nodes[3]?.slots).toEqual([
      [0, 5459],
      [5460, 5460],
    ]);
    expect(nodes[0]?.slots).toEqual([]);
    expect(nodes[4]?.master).toBe('127.0.0.1:7001');
    expect(nodes[5]?.master).toBe('127.0.0.1:7002');
    expect(nodes[1]?.flags).toEqual(['myself', 'master']);
  });
});
