import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { parseInfo } from '../main/core/info/parseInfo';
import { freePort } from '../main/core/redisProcess/freePort';
import type { RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { eventually, startRedis } from './redis';
import type { TlsFiles } from './tls';
import { FAST_SYNC_ARGS, replicaInSync } from './replication';

const run = promisify(execFile);

export interface TestCluster {
  /** Every node, in start order. */
  nodes: RedisProcess[];
  /** The nodes that were masters once the cluster was formed (3), and their replicas (3). */
  masters: RedisProcess[];
  replicas: RedisProcess[];
  /** "127.0.0.1:port" of every node: seeds for a profile. */
  addresses: string[];
  password: string | undefined;
  /** Stop every node. Idempotent. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** requirepass on every node, and masterauth so replicas can sync. */
  password?: string;
  /**
   * cluster-node-timeout: how long a node may be unreachable before it is
   * flagged failing and its replica may take over. Default 3 s, so automatic
   * failovers in tests are quick; manual CLUSTER FAILOVER does not wait on it.
   */
  nodeTimeoutMs?: number;
  /** Extra arguments for every node. */
  args?: string[];
  /** Serve TLS only, the cluster bus and replication too (tls-cluster, tls-replication). */
  tls?: TlsFiles;
  /**
   * cluster-announce-hostname on every node, and cluster-preferred-endpoint-type hostname:
   * CLUSTER SLOTS and redirections then name the nodes by this name instead of an IP.
   */
  announceHostname?: string;
  /** Replicas per master: 1 (6 nodes, the default) or 0 (3 masters alone). */
  replicas?: 0 | 1;
}

const BUS_PORT_ATTEMPTS = 3;

/**
 * One cluster node on a free port. The bus port defaults to port + 10000, which
 * is past 65535 for most ephemeral ports, so Redis 7's cluster-port names a free
 * one. Both are picked free but may be taken before Redis binds them: retried.
 */
async function startNode(opts: ClusterOptions): Promise<RedisProcess> {
  for (let attempt = 1; ; attempt++) {
    const busPort = await freePort();
    try {
      return await startRedis({
        ...(opts.password === undefined ? {} : { password: opts.password }),
        ...(opts.tls === undefined ? {} : { tls: opts.tls }),
        args: [
          ...(opts.tls === undefined ? [] : ['--tls-cluster', 'yes', '--tls-replication', 'yes']),
          ...(opts.announceHostname === undefined
            ? []
            : ['--cluster-announce-hostname', opts.announceHostname, '--cluster-preferred-endpoint-type', 'hostname']),
          '--cluster-enabled',
          'yes',
          // Relative to the node's own temp dir (Redis chdirs to --dir).
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          String(opts.nodeTimeoutMs ?? 3_000),
          '--cluster-port',
          String(busPort),
          ...FAST_SYNC_ARGS,
          ...(opts.password === undefined ? [] : ['--masterauth', opts.password]),
          ...(opts.args ?? []),
        ],
      });
    } catch (err) {
      if (attempt >= BUS_PORT_ATTEMPTS) throw err;
    }
  }
}

async function clusterInfo(node: RedisProcess, password: string | undefined, tls: TlsFiles | undefined): Promise<Record<string, string>> {
  const redis = new Redis({
    host: node.host,
    port: node.port,
    lazyConnect: true,
    retryStrategy: () => null,
    ...(password === undefined ? {} : { password }),
    ...(tls === undefined ? {} : { tls: { ca: readFileSync(tls.caFile) } }),
  });
  try {
    await redis.connect();
    const text = String(await redis.call('CLUSTER', 'INFO'));
    const role = parseInfo(await redis.info('replication'))['replication']?.['role'] ?? '';
    // Which nodes this node believes are replicas: gossip spreads each CLUSTER REPLICATE a little later.
    const nodes = String(await redis.call('CLUSTER', 'NODES'));
    const replicasSeen = String(nodes.split('\n').filter((l) => / (myself,)?slave /.test(l)).length);
    return { ...(parseInfo(`# Cluster\r\n${text}`)['cluster'] ?? {}), role, replicasSeen };
  } catch {
    return {};
  } finally {
    redis.disconnect();
  }
}

/**
 * A 6-node Redis Cluster on loopback, 3 masters and 3 replicas, formed by
 * `redis-cli --cluster create … --cluster-replicas 1 --cluster-yes`. Resolves
 * once every node reports cluster_state:ok with all 16384 slots assigned and
 * 6 known nodes, every node's CLUSTER NODES shows the 3 replicas as replicas,
 * and every replica has finished its initial sync.
 */
export async function startCluster(opts: ClusterOptions = {}): Promise<TestCluster> {
  const nodes: RedisProcess[] = [];
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= Promise.all(nodes.map((n) => n.stop())).then(() => undefined);
    return stopping;
  };
  try {
    const perMaster = opts.replicas ?? 1;
    const size = 3 * (1 + perMaster);
    const started = await Promise.allSettled(Array.from({ length: size }, () => startNode(opts)));
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;

    const addresses = nodes.map((n) => `${n.host}:${n.port}`);
    const auth = opts.password === undefined ? [] : ['-a', opts.password, '--no-auth-warning'];
    const tls = opts.tls === undefined ? [] : ['--tls', '--cacert', opts.tls.caFile];
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', String(perMaster), '--cluster-yes', ...auth, ...tls], {
      timeout: 30_000,
    }).catch((err: unknown) => {
      const out = (err as { stdout?: string; stderr?: string }).stdout ?? '';
      throw new Error(`redis-cli --cluster create failed: ${String(err)}\n${out.slice(-2000)}`);
    });

    const infos: Array<Record<string, string>> = [];
    const formed = await eventually(
      async () => {
        infos.splice(0, infos.length, ...(await Promise.all(nodes.map((n) => clusterInfo(n, opts.password, opts.tls)))));
        return infos.every(
          (i) =>
            i['cluster_state'] === 'ok' &&
            i['cluster_slots_assigned'] === '16384' &&
            i['cluster_known_nodes'] === String(size) &&
            i['replicasSeen'] === String(3 * perMaster),
        );
      },
      15_000,
      50,
    );
    if (!formed) throw new Error(`the cluster did not reach cluster_state:ok: ${JSON.stringify(infos)}`);
    const masters = nodes.filter((_, i) => infos[i]?.['role'] === 'master');
    const replicas = nodes.filter((_, i) => infos[i]?.['role'] === 'slave');
    if (masters.length !== 3 || replicas.length !== 3 * perMaster) {
      throw new Error(`expected 3 masters and ${3 * perMaster} replicas, got ${masters.length} and ${replicas.length}`);
    }
    // Replicas of a TLS cluster are not awaited: replicaInSync speaks plain TCP (and the TLS clusters here have none).
    const synced = await eventually(
      async () => opts.tls !== undefined || (await Promise.all(replicas.map((r) => replicaInSync(r, opts.password)))).every(Boolean),
      15_000,
      50,
    );
    if (!synced) throw new Error('the cluster replicas did not finish their initial sync');
    return { nodes, masters, replicas, addresses, password: opts.password, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * One cluster for a describe block: started in beforeAll, stopped in afterAll.
 * Call at collection time; read the cluster inside tests through the getter.
 */
export function useCluster(opts: ClusterOptions = {}): () => TestCluster {
  let cluster: TestCluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster(opts);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (cluster === undefined) throw new Error('useCluster(): the cluster is only available inside tests and hooks');
    return cluster;
  };
}
