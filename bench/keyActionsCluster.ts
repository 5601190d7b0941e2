import { Redis } from 'ioredis';
import type { RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { startBenchCluster } from './clusterServers';
import { slotOwners, splitByOwner } from './clusterSeed';
import { loadAverage } from './measure';
import { dbsize, exact, expectedMatches, mb, PATTERN, pipeInto, r2, runKeysCli } from './keyActionsRun';

const sum = async (nodes: RedisProcess[]) => (await Promise.all(nodes.map(dbsize))).reduce((a, b) => a + b, 0);

/**
 * The same deletion on a 6-node cluster (3 masters, 3 replicas): bulkData's N keys split by slot
 * owner and piped into each master, then `cacheboard keys delete --cluster` from one seed node;
 * exact counts, DBSIZE over the masters after, and over the replicas once they caught up. No
 * anchor: `xargs -n 1000 redis-cli unlink` fails with CROSSSLOT on a cluster.
 */
export async function clusterDeleteBench(dir: string, n: number, valueBytes: number): Promise<Record<string, unknown>> {
  const cluster = await startBenchCluster({ replicas: true });
  try {
    const admin = new Redis({ host: cluster.masters[0]?.host, port: cluster.masters[0]?.port });
    const owners = await slotOwners(admin, cluster.masters).finally(() => admin.disconnect());
    const files = await splitByOwner(dir, n, valueBytes, owners, cluster.masters.length);
    await Promise.all(cluster.masters.map((m, i) => pipeInto(m, files[i] as string)));
    exact('keys seeded over the masters', await sum(cluster.masters), n);

    const want = expectedMatches(n);
    const seed = cluster.masters[0] as RedisProcess;
    const loadBefore = loadAverage();
    const { run, report } = await runKeysCli(['delete', '--cluster', '--url', `redis://${seed.host}:${seed.port}`, '--match', PATTERN]);
    exact('matched', report.matched, want);
    exact('deleted', report.deleted, want);
    exact('errors', report.errors, 0);
    exact('DBSIZE over the masters after', await sum(cluster.masters), n - want);
    // Replication is asynchronous: the replicas are given up to 10 s to apply the UNLINKs.
    let onReplicas = await sum(cluster.replicas);
    for (let t = 0; t < 200 && onReplicas !== n - want; t++) {
      await new Promise((res) => setTimeout(res, 50));
      onReplicas = await sum(cluster.replicas);
    }
    return {
      keys: n,
      nodes: cluster.masters.length + cluster.replicas.length,
      masters: cluster.masters.length,
      pattern: PATTERN,
      expected_matches: want,
      seconds: r2(run.seconds),
      cli_seconds: report.seconds,
      matched: report.matched,
      deleted: report.deleted,
      skipped: report.skipped,
      dbsize_after_masters: n - want,
      dbsize_after_replicas: onReplicas,
      peak_rss_mb: mb(run.peakRssBytes),
      exact_counts: true,
      load_average: { before: loadBefore, after: loadAverage() },
    };
  } finally {
    await cluster.stop();
  }
}
