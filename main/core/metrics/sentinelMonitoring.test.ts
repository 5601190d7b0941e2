import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileRegistry, sentinelSpec } from '../../../testing/profiles';
import { eventually } from '../../../testing/redis';
import { useSentinel } from '../../../testing/sentinel';
import { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';
import { record } from './metricsTestKit';

const set = useSentinel({ password: 'data-pw' });
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

let pool: Pool;
let hub: MetricsHub;
beforeAll(() => {
  const spec = sentinelSpec(set(), { password: 'data-pw' });
  pool = new Pool(profileRegistry({ s: spec }));
  hub = new MetricsHub({ pool });
});
afterAll(async () => {
  await hub.shutdown();
  await pool.shutdown();
});

describe('monitoring a sentinel profile', () => {
  it('lists the master under its own address with its replicas, and the 3 sentinels; SENTINEL FAILOVER is a failover event naming the new master', async () => {
    const w = record(hub, 's');
    try {
      await w.until(
        'master, 2 replicas and 3 sentinels',
        () => {
          const t = w.ofKind('topology').at(-1);
          // A sentinel links to its peers lazily: right after start one may still be flagged disconnected.
          return t?.nodes.length === 3 && t.sentinels?.length === 3 && t.sentinels.every((x) => x.healthy);
        },
        10_000,
      );
      const t = w.ofKind('topology').at(-1)!;
      expect(t.mode).toBe('sentinel');
      expect(t.nodes[0]).toMatchObject({ address: addr(set().master), role: 'master', up: true });
      expect(t.nodes.slice(1).map((n) => n.master)).toEqual([addr(set().master), addr(set().master)]);
      expect(t.sentinels?.map((s) => s.address).sort()).toEqual([...set().sentinelAddresses].sort());
      await w.ticks(1);

      const sentinel = await set().sentinelClient(0);
      try {
        expect(await sentinel.call('SENTINEL', 'FAILOVER', set().masterName)).toBe('OK');
      } finally {
        sentinel.disconnect();
      }
      // Polling may see the promoted replica's role change before the sentinels publish +switch-master.
      await w.until('a failover to a replica', () => w.ofKind('failover').some((e) => e.failover.newRole === 'master'), 20_000);
      const promoted = w.ofKind('failover').find((e) => e.failover.newRole === 'master')!.failover.address;
      expect(promoted).not.toBe(addr(set().master));
      expect(await eventually(async () => (await set().currentMaster()) === promoted, 15_000, 100)).toBe(true);
      await w.until(
        'the event naming the old master too',
        () => w.ofKind('failover').some((e) => e.failover.address === promoted && e.failover.previousMaster === addr(set().master)),
        15_000,
      );
      const newMaster = promoted;
      await w.until(
        'the topology led by the new master',
        () => {
          const nodes = w.ofKind('topology').at(-1)?.nodes ?? [];
          return nodes[0]?.address === newMaster && nodes[0].role === 'master';
        },
        15_000,
      );
      await w.ticks(2);
      expect(
        w
          .ofKind('samples')
          .at(-1)
          ?.samples.every((s) => s.up),
      ).toBe(true);
    } finally {
      w.stop();
    }
  }, 60_000);
});
