import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { writeBulkInputs } from './bulkData';
import { startBenchCluster } from './clusterServers';
import { slotOwners, splitByOwner } from './clusterSeed';
import { cliArgs } from '../testing/cli';
import { argValue, runChild } from './measure';

/**
 * `npm run bench -- cluster`: N records loaded into a 3-master cluster by
 * `cacheboard load --cluster` (one pipe per master, routed by slot), against
 * the anchor measured in the same run: `redis-cli --pipe` run on each master at
 * once with the records pre-split by slot owner; its combined rate is N over
 * the slowest one's time.
 */
export async function clusterBench(): Promise<Record<string, unknown>> {
  const n = argValue('records', 1_000_000);
  const valueBytes = argValue('value-bytes', 100);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-cluster-'));
  const cluster = await startBenchCluster();
  const admins = cluster.masters.map((m) => new Redis({ host: m.host, port: m.port }));
  try {
    const owners = await slotOwners(admins[0] as Redis, cluster.masters);
    const { resp } = await writeBulkInputs(dir, n, valueBytes);
    const split = await splitByOwner(dir, n, valueBytes, owners, cluster.masters.length);
    const fresh = () => Promise.all(admins.map((a) => a.flushall()));
    const check = async (label: string) => {
      const size = (await Promise.all(admins.map((a) => a.dbsize()))).reduce((a, b) => a + b, 0);
      if (size !== n) throw new Error(`${label}: expected ${n} keys over the masters, found ${size}`);
    };

    await fresh();
    const seed = cluster.masters[0] as { host: string; port: number };
    const cb = await runChild(process.execPath, cliArgs('load', resp, '--cluster', '--url', `redis://${seed.host}:${seed.port}`, '--mode', 'merge', '--json'));
    if (cb.code !== 0) throw new Error(`cacheboard load --cluster failed (${cb.code}): ${cb.stderr}${cb.stdout}`);
    await check('cacheboard');
    const report = JSON.parse(cb.stdout.trim().split('\n').pop() ?? '{}') as { ops_per_sec: number; seconds: number; nodes: unknown };

    await fresh();
    const pipes = await Promise.all(
      cluster.masters.map((m, i) => runChild('redis-cli', ['-h', m.host, '-p', String(m.port), '--pipe'], { stdinFile: split[i] as string })),
    );
    for (const p of pipes) if (p.code !== 0) throw new Error(`redis-cli --pipe failed: ${p.stderr}${p.stdout}`);
    await check('redis-cli --pipe');
    const slowest = Math.max(...pipes.map((p) => p.seconds));
    const anchor = Math.round(n / slowest);
    const ratio = (x: number) => Math.round((x / anchor) * 100) / 100;
    const wall = Math.round(n / cb.seconds);
    return {
      records: n,
      value_bytes: valueBytes,
      masters: cluster.masters.length,
      anchor: {
        name: 'redis-cli --pipe per master, concurrently, pre-split by slot',
        ops_per_sec: anchor,
        seconds: slowest,
        per_master_seconds: pipes.map((p) => p.seconds),
      },
      cacheboard_cluster: {
        ops_per_sec: report.ops_per_sec,
        ratio: ratio(report.ops_per_sec),
        wall_ops_per_sec: wall,
        wall_ratio: ratio(wall),
        peak_rss_mb: Math.round(cb.peakRssBytes / 1e5) / 10,
        nodes: report.nodes,
      },
      goal: 'ratio >= 0.8',
      note: 'cacheboard reads and routes the unsplit file itself (merge mode); ops_per_sec is the load as it measures itself, wall_* include process start-up',
    };
  } finally {
    for (const a of admins) a.disconnect();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
