import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '../main/core/redisProcess/freePort';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';

const run = promisify(execFile);

export interface BenchCluster {
  masters: RedisProcess[];
  stop(): Promise<void>;
}

/**
 * Three cluster masters and no replicas, saves off: the bench's cluster.
 * testing/cluster.ts builds the tests' 6-node one, but imports vitest; this
 * runs under plain Node. Redis 7's --cluster-port names a free bus port (the
 * default, port + 10000, is past 65535 for most ephemeral ports).
 */
export async function startBenchCluster(): Promise<BenchCluster> {
  const masters: RedisProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(masters.map((m) => m.stop()));
  };
  try {
    for (let i = 0; i < 3; i++) {
      const bus = await freePort();
      masters.push(
        await spawnRedisServer({
          args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-port', String(bus), '--save', '', '--appendonly', 'no'],
        }),
      );
    }
    const addresses = masters.map((m) => `${m.host}:${m.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
    for (const m of masters) {
      const r = new Redis({ host: m.host, port: m.port });
      try {
        for (let t = 0; !String(await r.call('CLUSTER', 'INFO')).includes('cluster_state:ok'); t++) {
          if (t > 300) throw new Error(`${m.host}:${m.port} never reached cluster_state:ok`);
          await new Promise((res) => setTimeout(res, 50));
        }
      } finally {
        r.disconnect();
      }
    }
    return { masters, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
