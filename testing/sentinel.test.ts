import { describe, expect, it } from 'vitest';
import { adminClient, closeAdmins } from './redis';
import { startSentinelSet } from './sentinel';

describe('startSentinelSet', () => {
  it('starts a master, 2 replicas and 3 sentinels that agree on the master, in under 5 s; stop() ends them all', async () => {
    const t0 = Date.now();
    const set = await startSentinelSet({ password: 'data-pw', sentinelPassword: 'sentinel-pw' });
    const took = Date.now() - t0;
    try {
      expect(took).toBeLessThan(5_000);
      expect(await set.currentMaster()).toBe(`127.0.0.1:${set.master.port}`);
      const sentinel = await set.sentinelClient(2);
      try {
        const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', set.masterName)) as string[][];
        expect(replicas.map((r) => Number(r[r.indexOf('port') + 1])).sort()).toEqual(set.replicas.map((r) => r.port).sort());
      } finally {
        sentinel.disconnect();
      }
      // The data nodes require their password; the sentinels theirs.
      const admin = await adminClient(set.master, { password: 'data-pw' });
      expect(await admin.ping()).toBe('PONG');
    } finally {
      await closeAdmins();
      await set.stop();
    }
    expect([set.master, ...set.replicas, ...set.sentinels].every((p) => p.exited())).toBe(true);
  });
});
