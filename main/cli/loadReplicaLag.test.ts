import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins } from '../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../testing/replication';

let set: ReplicaSet;
const dataDir = mkdtempSync(join(tmpdir(), 'cb-replica-lag-'));

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 1, args: ['--enable-debug-command', 'yes'] });
}, 60_000);
afterAll(async () => {
  await closeAdmins();
  await set.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface LagJson {
  outcome: string;
  replica_lag: Array<{ addr: string; max_lag_bytes: number; max_lag_seconds: number }>;
  replicas: Array<{ addr: string; offset: number; caught_up: boolean; behind_bytes: number }>;
}

describe('cacheboard load --wait-replicas, with a replica that falls behind', () => {
  it('reports the lag it sampled during the load (> 0), then the replica caught up at the end', async () => {
    const file = join(dataDir, 'rows.csv');
    const rows = ['id,v'];
    for (let i = 0; i < 50_000; i++) rows.push(`${i},value-${i}`);
    writeFileSync(file, `${rows.join('\n')}\n`);
    const replica = set.replicas[0];
    if (replica === undefined) throw new Error('no replica');
    // The replica's event loop sleeps: it neither applies the stream nor acknowledges, so the master's offset runs ahead.
    const sleeper = await adminClient(replica);
    const slept = sleeper.call('DEBUG', 'SLEEP', '4');
    const r = await runCli([
      'load',
      file,
      '--key',
      'lag:{id}',
      '--value',
      'v',
      '--mode',
      'merge',
      '--wait-replicas',
      '1',
      '--json',
      '--url',
      `${set.master.url}/2`,
    ]);
    await slept;
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as LagJson;
    expect(j.outcome).toBe('ok');
    expect(j.replica_lag).toHaveLength(1);
    expect(j.replica_lag[0]?.addr).toMatch(new RegExp(`:${replica.port}$`));
    expect(j.replica_lag[0]?.max_lag_bytes).toBeGreaterThan(0);
    expect(j.replicas).toEqual([{ addr: j.replica_lag[0]?.addr, offset: expect.any(Number), caught_up: true, behind_bytes: 0 }]);
    const admin = await adminClient(replica);
    await admin.select(2);
    expect(await admin.dbsize()).toBe(50_000);
  }, 60_000);
});
