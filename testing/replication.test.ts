import { afterAll, describe, expect, it } from 'vitest';
import { parseInfo } from '../main/core/info/parseInfo';
import { adminClient, closeAdmins } from './redis';
import { startReplicaSet } from './replication';

afterAll(closeAdmins);

describe('startReplicaSet', () => {
  it('starts a master and two in-sync replicas in under 2 s, and stop() ends them all', async () => {
    const t0 = Date.now();
    const set = await startReplicaSet({ replicas: 2 });
    expect(Date.now() - t0).toBeLessThan(2_000);
    const admin = await adminClient(set.master);
    const repl = parseInfo(await admin.info('replication'))['replication'] ?? {};
    expect(repl['connected_slaves']).toBe('2');
    for (const r of set.replicas) {
      const info = parseInfo(await (await adminClient(r)).info('replication'))['replication'] ?? {};
      expect(info).toMatchObject({ role: 'slave', master_port: String(set.master.port), master_link_status: 'up' });
    }
    await set.stop();
    expect([set.master, ...set.replicas].every((p) => p.exited())).toBe(true);
  });

  it('with a password, every server requires it and the replicas authenticate to the master', async () => {
    const set = await startReplicaSet({ replicas: 1, password: 'pw' });
    const admin = await adminClient(set.replicas[0]!, { password: 'pw' });
    expect(parseInfo(await admin.info('replication'))['replication']?.['master_link_status']).toBe('up');
    await set.stop();
  });
});
