import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, eventually, startRedis, stopAllRedis, type RedisProcess } from '../../../../testing/redis';
import { phasesOf, runJob, writeResp } from './loadTestKit';

let dir: string;
let master: RedisProcess;
let replica: RedisProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cacheboard-persist-'));
  // No 5 s wait before the replica's first (diskless) sync.
  master = await startRedis({ args: ['--save', '3600 1', '--repl-diskless-sync-delay', '0'] });
  replica = await startRedis({ args: ['--replicaof', '127.0.0.1', String(master.port)] });
  const admin = await adminClient(replica);
  const linked = await eventually(async () => /master_link_status:up/.test(await admin.info('replication')), 10_000, 50);
  if (!linked) throw new Error('the replica did not sync');
});
afterAll(async () => {
  await closeAdmins();
  await stopAllRedis();
  rmSync(dir, { recursive: true, force: true });
});

describe('after the switch', () => {
  it('runs BGSAVE and waits for it, and WAITs for the replica, reporting its offset', async () => {
    const path = writeResp(
      dir,
      'p.resp',
      Array.from({ length: 2_000 }, (_, i) => ['SET', `p:${i}`, String(i)]),
    );
    const { report, events } = await runJob(master, {
      path,
      format: 'resp',
      mode: 'swap',
      bgsave: true,
      waitReplicas: 1,
      journalDir: join(dir, 'journal'),
    });
    expect(report).toMatchObject({ outcome: 'ok', swapped: true, bgsave: { status: 'ok' } });
    expect(report.replicas).toEqual([{ addr: `127.0.0.1:${replica.port}`, offset: expect.any(Number), acked: true, behind: 0 }]);
    expect(phasesOf(events)).toEqual(['preflight', 'staging', 'loading', 'verifying', 'swapping', 'bgsave', 'replicas', 'cleanup', 'done']);
    const onReplica = await adminClient(replica);
    expect(await onReplica.get('p:1999')).toBe('1999');
  });

  it('warns, without failing, when fewer replicas than asked acknowledge', async () => {
    const path = writeResp(dir, 'q.resp', [['SET', 'q', '1']]);
    const { report } = await runJob(master, {
      path,
      format: 'resp',
      mode: 'merge',
      waitReplicas: 2,
      waitTimeoutMs: 300,
      journalDir: join(dir, 'journal'),
    });
    expect(report.outcome).toBe('ok');
    expect(report.warnings.join('\n')).toMatch(/Only 1 of 2 replicas acknowledged.*\(the master has 1 connected\)/);
  });
});
