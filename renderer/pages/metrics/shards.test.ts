import { describe, expect, it } from 'vitest';
import { shardsOf, slotText } from './shards';

describe('shardsOf', () => {
  it('groups each master with its replicas and counts its slots; an orphan replica is a shard of its own', () => {
    const shards = shardsOf([
      { address: 'a:1', role: 'master', up: true, slots: [[0, 5460]] },
      { address: 'b:1', role: 'replica', master: 'a:1', up: true },
      {
        address: 'c:1',
        role: 'master',
        up: true,
        slots: [
          [5461, 10922],
          [16000, 16000],
        ],
      },
      { address: 'd:1', role: 'slave', master: 'gone:1', up: false },
    ]);
    expect(shards.map((s) => [s.master.address, s.replicas.map((r) => r.address), s.slotCount])).toEqual([
      ['a:1', ['b:1'], 5461],
      ['c:1', [], 5463],
      ['d:1', [], 0],
    ]);
    expect(
      slotText([
        [5461, 10922],
        [16000, 16000],
      ]),
    ).toBe('5461-10922, 16000');
    expect(slotText(undefined)).toBe('no slots');
  });
});
