import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '../main/core/redisProcess/freePort';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { FAST_SYNC_ARGS, replicaInSync } from '../testing/replication';

const run = promisify(execFile);

export interface BenchCluster {
  masters: RedisProcess[];
  /** One per master with `{ replicas: true }`, else none. */
  replicas: RedisProcess[];
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

/** Polls `check` every 50 ms for up to 15 s; throws `what` if it never holds. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let t = 0; !(await check()); t++) {
    if (t > 300) throw new Error(what);
    await sleep(50);
  }
}

async function ask<T>(node: RedisProcess, f: (r: Redis) => Promise<T>): Promise<T> {
  const r = new Redis({ host: node.host, port: node.port });
  try {
    return await f(r);
  } finally {
    r.disconnect();
  }
}

/**
 * Three cluster masters, saves off: the bench's cluster; with `{ replicas: true }` a replica
 * for each (6 nodes, `--cluster-replicas 1`), resolved once every replica finished its sync.
 * testing/cluster.ts builds the tests' 6-node one, but imports vitest; this runs under plain
 * Node. Redis 7's --cluster-port names a free bus port (the default, port + 10000, is past
 * 65535 for most ephemeral ports).
 */
export async function startBenchCluster(opts: { replicas?: boolean } = {}): Promise<BenchCluster> {
  const nodes: RedisProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((m) => m.stop()));
  };
  try {
    const count = opts.replicas === true ? 6 : 3;
    for (let i = 0; i < count; i++) {
      const bus = await freePort();
      nodes.push(
        await spawnRedisServer({
          args: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-port',
            String(bus),
            '--save',
            '',
            '--appendonly',
            'no',
            ...FAST_SYNC_ARGS,
          ],
        }),
      );
    }
    const addresses = nodes.map((m) => `${m.host}:${m.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', String(count / 3 - 1), '--cluster-yes'], { timeout: 30_000 });
    for (const m of nodes) {
      await until(`${m.host}:${m.port} never reached cluster_state:ok`, () =>
        ask(m, async (r) => String(await r.call('CLUSTER', 'INFO')).includes('cluster_state:ok')),
      );
    }
    // A replica may report role:master until its CLUSTER REPLICATE took: asked until 3 are masters.
    let roles: (string | undefined)[] = [];
    await until('the cluster did not settle on 3 masters', async () => {
      roles = await Promise.all(nodes.map((m) => ask(m, async (r) => /role:(\w+)/.exec(await r.info('replication'))?.[1])));
      return roles.filter((x) => x === 'master').length === 3;
    });
    const masters = nodes.filter((_, i) => roles[i] === 'master');
    const replicas = nodes.filter((_, i) => roles[i] === 'slave');
    await until('the cluster replicas did not finish their initial sync', async () =>
      (await Promise.all(replicas.map((r) => replicaInSync(r)))).every(Boolean),
    );
    return { masters, replicas, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
