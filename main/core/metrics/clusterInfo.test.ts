import { describe, expect, it } from 'vitest';
import { parseClusterInfo, uncoveredSlots, worstView } from './clusterInfo';

const info = (state: string, ok: number, pfail = 0, fail = 0): Record<string, string> =>
  parseClusterInfo(
    `cluster_state:${state}\r\ncluster_slots_assigned:16384\r\ncluster_slots_ok:${ok}\r\n` +
      `cluster_slots_pfail:${pfail}\r\ncluster_slots_fail:${fail}\r\ncluster_known_nodes:6\r\ncluster_size:3\r\n`,
  );

describe('worstView', () => {
  it('takes the node that sees the cluster worst: a failing state first, then fewer slots ok', () => {
    const views = new Map([
      ['a:1', info('ok', 16384)],
      ['b:1', info('ok', 10923, 5461)],
      ['c:1', info('fail', 10923, 0, 5461)],
    ]);
    expect(worstView(views)).toMatchObject({ state: 'fail', slotsFail: 5461, reportedBy: 'c:1', knownNodes: 6, size: 3 });
    views.delete('c:1');
    expect(worstView(views)).toMatchObject({ state: 'ok', slotsPfail: 5461, reportedBy: 'b:1' });
    expect(worstView(new Map())).toBeUndefined();
  });

  it('counts slots unassigned or on a failing master as uncovered', () => {
    const c = worstView(new Map([['a:1', { ...info('fail', 10000, 0, 384), cluster_slots_assigned: '16000' }]]));
    expect(c === undefined ? -1 : uncoveredSlots(c)).toBe(768);
  });
});
