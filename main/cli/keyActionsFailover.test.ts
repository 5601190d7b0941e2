import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../testing/cluster';
import { adminClient, closeAdmins, eventually, type RedisProcess } from '../../testing/redis';
import { countKeys, fillClusterKeys, firstDeletes, startCli } from './keyActionsTestKit';

/*
 * Issue 29 ("Trust"): a bulk delete on a 3-master cluster with replicas, one of whose masters
 * fails over to its replica mid-run, ends with exact counts, no matching key on any master and
 * every other key kept.
 *
 * The failover is CLUSTER FAILOVER on the replica (graceful: the master stops taking writes until
 * its replica has all of them, then they swap), not a SIGKILL of the master: replication is
 * asynchronous, so a killed master's last acknowledged UNLINKs may never reach the replica that
 * takes over, and the keys they deleted come back. No client can count those exactly; that is
 * Redis's nature, not the run's (a kill -9 with a resume is keyActionsCrash.test.ts's case).
 */

const cluster = useCluster();
const dir = mkdtempSync(join(tmpdir(), 'cb-cli-key-actions-failover-'));
const env = { CACHEBOARD_DATA_DIR: join(dir, 'data') };
let side: Cluster;

beforeAll(() => {
  const [host, port] = (cluster().addresses[0] ?? '').split(':');
  side = new Cluster([{ host: host ?? '127.0.0.1', port: Number(port) }]);
});
afterAll(async () => {
  side.disconnect();
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});

const role = async (admin: Redis): Promise<string> => /^role:(\w+)/m.exec(await admin.info('replication'))?.[1] ?? '?';

/** The replica (of the cluster's 3) whose master is `master`. */
async function replicaOf(master: RedisProcess): Promise<RedisProcess> {
  for (const r of cluster().replicas) {
    const info = await (await adminClient(r)).info('replication');
    if (new RegExp(`^master_port:${master.port}\\r?$`, 'm').test(info)) return r;
  }
  throw new Error(`no replica of ${master.port}`);
}

describe('cacheboard keys delete --cluster across a failover', () => {
  it('a delete during which a master fails over to its replica counts every matching key once, leaves none on any master and keeps every other key', async () => {
    const matching = 45_000;
    const others = 15_000;
    await fillClusterKeys(side, 'c', matching);
    await fillClusterKeys(side, 'keep', others);
    const [master] = cluster().masters;
    if (master === undefined) throw new Error('no master');
    const replica = await replicaOf(master);
    const onMaster = await adminClient(master);
    const onReplica = await adminClient(replica);
    const atStart = await onMaster.dbsize();
    const matchingOnMaster = await countKeys(onMaster, 'c:*');
    expect(matchingOnMaster).toBeGreaterThan(matching / 5);

    // A tight latency budget: small SCAN pages, so the run lasts seconds and the failover lands mid-run.
    const run = startCli(
      ['keys', 'delete', '--url', `redis://${cluster().addresses[0] ?? ''}`, '--cluster', '--match', 'c:*', '--yes', '--json', '--max-latency-ms', '0.5'],
      env,
    );

    // Once the run has deleted some of this master's keys, not most, its replica takes over.
    const before = await firstDeletes(onMaster, atStart);
    expect(before - (atStart - matchingOnMaster)).toBeGreaterThan(matchingOnMaster / 4);
    expect(await onReplica.call('CLUSTER', 'FAILOVER')).toBe('OK');
    expect(await eventually(async () => (await role(onReplica)) === 'master' && (await role(onMaster)) === 'slave', 30_000, 5)).toBe(true);
    // The failover happened while the run went on.
    expect(run.running()).toBe(true);

    const { code, out, err } = await run.exited;
    // The report first: on a failure its error and error samples say what went wrong.
    const r = JSON.parse(out) as Record<string, unknown>;
    // Every matching key counted once and deleted: a key whose script met the failover window
    // (the old master paused, then redirecting; the new one not yet known everywhere) is retried
    // on the new master, not reported as an error.
    expect(r).toMatchObject({
      action: 'delete',
      complete: true,
      matched: matching,
      acted: matching,
      deleted: matching,
      skipped: 0,
      errors: 0,
      exact: true,
      short_by_at_most: 0,
    });
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(r.shards).toHaveLength(3);
    // The run went on acting on that shard's keys after the failover: its scripts, refused by the
    // old master (MOVED), ran on the new one (a replica gets a script's effects, never EVALSHA).
    expect(Number(/^cmdstat_evalsha:calls=(\d+)/m.exec(await onReplica.info('commandstats'))?.[1] ?? 0)).toBeGreaterThan(0);

    const masters = [...cluster().masters.filter((m) => m !== master), replica];
    const admins = await Promise.all(masters.map((m) => adminClient(m)));
    expect(await Promise.all(admins.map(role))).toEqual(['master', 'master', 'master']);
    expect((await Promise.all(admins.map((a) => countKeys(a, 'c:*')))).reduce((a, b) => a + b, 0)).toBe(0);
    const kept = await Promise.all(admins.map((a) => countKeys(a, 'keep:*')));
    expect(kept.reduce((a, b) => a + b, 0)).toBe(others);
    const sizes = await Promise.all(admins.map((a) => a.dbsize()));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(others);
    // The replicas, the demoted master among them, come to hold the same: no deleted key lives on there.
    const replicas = await Promise.all([...cluster().replicas.filter((r) => r !== replica), master].map((m) => adminClient(m)));
    expect(await eventually(async () => (await Promise.all(replicas.map((a) => a.dbsize()))).reduce((a, b) => a + b, 0) === others, 15_000, 20)).toBe(true);
    expect((await Promise.all(replicas.map((a) => countKeys(a, 'c:*')))).reduce((a, b) => a + b, 0)).toBe(0);
  }, 180_000);
});
