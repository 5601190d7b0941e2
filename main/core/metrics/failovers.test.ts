import { describe, expect, it } from 'vitest';
import type { NodeSample } from '../../../app/schemas/metrics';
import { FailoverLog, MAX_FAILOVERS } from './failovers';

const up = (address: string, role: string): NodeSample => ({ address, at: 0, up: true, role });
const down = (address: string): NodeSample => ({ address, at: 0, up: false });

describe('FailoverLog', () => {
  it('a role change between two answered polls is one event with the old and new role; the first sighting is none', () => {
    const log = new FailoverLog();
    expect(log.observe(1, [up('a:1', 'master'), up('b:1', 'slave')])).toEqual([]);
    const events = log.observe(2, [up('a:1', 'replica'), up('b:1', 'master')]);
    expect(events.map((e) => [e.address, e.oldRole, e.newRole, e.at])).toEqual([
      ['a:1', 'master', 'replica', 2],
      ['b:1', 'replica', 'master', 2],
    ]);
  });

  it('a node down in between keeps its last role: promoted while away is still a failover, a restart is not', () => {
    const log = new FailoverLog();
    log.observe(1, [up('a:1', 'replica'), up('b:1', 'replica')]);
    log.observe(2, [down('a:1'), down('b:1')]);
    expect(log.observe(3, [up('a:1', 'master'), up('b:1', 'replica')]).map((e) => e.address)).toEqual(['a:1']);
  });

  it("Sentinel's switch merges with the promotion polling saw, sent again under the same id naming the old master", () => {
    const log = new FailoverLog();
    log.observe(1, [up('b:1', 'replica')]);
    const [seen] = log.observe(2, [up('b:1', 'master')]);
    const merged = log.masterSwitched(3, 'b:1', 'a:1');
    expect(merged).toMatchObject({ id: seen?.id, previousMaster: 'a:1', source: 'sentinel' });
    expect(log.masterSwitched(4, 'b:1', 'a:1')).toBeUndefined();
    expect(log.recent()).toHaveLength(1);
  });

  it(`keeps the newest ${MAX_FAILOVERS}`, () => {
    const log = new FailoverLog();
    for (let i = 0; i <= MAX_FAILOVERS + 5; i++) log.observe(i * 60_000, [up('a:1', i % 2 === 0 ? 'master' : 'replica')]);
    const recent = log.recent();
    expect(recent).toHaveLength(MAX_FAILOVERS);
    expect(recent.at(-1)?.at).toBe((MAX_FAILOVERS + 5) * 60_000);
  });
});
