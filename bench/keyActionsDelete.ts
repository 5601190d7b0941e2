import { join } from 'node:path';
import { Redis } from 'ioredis';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { writeBulkResp } from './bulkData';
import { floorFigures, runChildWithCpu } from './floor';
import { jobUsec } from './jobUsec';
import { loadAverage } from './measure';
import { idlePing, pingProbe, watchServer, type PingFigures } from './pingProbe';
import { dbsize, exact, expectedMatches, mb, PATTERN, pipeInto, r2, runKeysCli } from './keyActionsRun';

/** One timed deletion on a freshly seeded server, with the probe and the server's own view beside it. */
interface Deletion {
  seconds: number;
  ping_ms_during: PingFigures;
  server_slowest_command_ms: number;
  dbsize_after: number;
}

/** Flushes `server`, pipes the seed in, and checks it holds all `n` keys. */
async function reseed(server: RedisProcess, file: string, n: number): Promise<void> {
  const admin = new Redis({ host: server.host, port: server.port });
  try {
    await admin.flushall();
  } finally {
    admin.disconnect();
  }
  await pipeInto(server, file);
  exact('keys seeded', await dbsize(server), n);
}

/**
 * Runs `act` with the PING probe and the server's own latency view on; checks DBSIZE after.
 * `floor`: the server's own time for the commands the run sent (INFO commandstats, the probe's
 * PINGs left out) beside its wall time and, when `act` measured it, its CPU time (floor.ts).
 */
async function measured<T extends { seconds: number; cpu_seconds?: number }>(
  server: RedisProcess,
  want: number,
  act: () => Promise<T>,
): Promise<T & Deletion & { floor: ReturnType<typeof floorFigures> }> {
  const view = await watchServer(server);
  const admin = new Redis({ host: server.host, port: server.port });
  const probe = await pingProbe(server);
  // All are stopped even when the run throws, so a failed run leaves no connection behind.
  const stopAll = () => Promise.all([probe.stop(), view.stop()]);
  try {
    const before = await jobUsec(admin);
    const done = await act().catch(async (err: unknown) => {
      await stopAll();
      throw err;
    });
    const usecAfter = await jobUsec(admin);
    const [during, seen] = await stopAll();
    const after = await dbsize(server);
    exact('DBSIZE after the deletion', after, want);
    const floor = floorFigures(before, usecAfter, done.seconds, done.cpu_seconds);
    return { ...done, seconds: r2(done.seconds), ping_ms_during: during, server_slowest_command_ms: seen.slowestCommandMs, dbsize_after: after, floor };
  } finally {
    admin.disconnect();
  }
}

/**
 * `cacheboard keys delete --match PATTERN` on the seeded server, its counts checked. `cpu`: its
 * CPU time measured (runChildWithCpu), its peak RSS then not (see runKeysCli).
 */
async function cacheboardDelete(server: RedisProcess, n: number, extra: string[], cpu: boolean) {
  const want = expectedMatches(n);
  return measured(server, n - want, async () => {
    const { run, report } = await runKeysCli(['delete', '--url', `redis://${server.host}:${server.port}/0`, '--match', PATTERN, ...extra], cpu);
    exact('matched', report.matched, want);
    exact('deleted', report.deleted, report.matched);
    exact('acted', report.acted, report.matched);
    exact('errors', report.errors, 0);
    return {
      seconds: run.seconds,
      cli_seconds: report.seconds,
      matched: report.matched,
      deleted: report.deleted,
      skipped: report.skipped,
      ...(run.cpuSeconds === undefined ? { peak_rss_mb: mb(run.peakRssBytes) } : { cpu_seconds: run.cpuSeconds }),
    };
  });
}

/** Seeds `n` keys (bulkData's `SET key:<i> <value>`) into a private server for `body`. */
async function withSeededServer<T>(
  dir: string,
  n: number,
  valueBytes: number,
  body: (server: RedisProcess, reseedIt: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const file = join(dir, `keys-${n}.resp`);
  await writeBulkResp(file, n, valueBytes);
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  try {
    const again = () => reseed(server, file, n);
    await again();
    return await body(server, again);
  } finally {
    await server.stop();
  }
}

/**
 * The headline figure: N keys, the ~11% matching PATTERN deleted by `cacheboard keys delete`
 * at the default pace (process start to exit, an independent PING probe beside it), then at
 * full speed, then the anchor `redis-cli --scan --pattern P | xargs -n 1000 redis-cli unlink`,
 * each on an identical fresh seed of the same server, each checked key for key by count, each
 * with its CPU time and the server's own time for what it sent (SCAN + UNLINK: `floor`).
 */
export async function deleteBench(dir: string, n: number, valueBytes: number): Promise<Record<string, unknown>> {
  return withSeededServer(dir, n, valueBytes, async (server, again) => {
    const loadBefore = loadAverage();
    const idle = await idlePing(server);
    const paced = await cacheboardDelete(server, n, [], true);
    await again();
    const fast = await cacheboardDelete(server, n, ['--full-speed'], true);
    await again();
    const cli = `redis-cli -h ${server.host} -p ${server.port}`;
    const anchor = await measured(server, n - expectedMatches(n), async () => {
      const run = await runChildWithCpu('sh', ['-c', `${cli} --scan --pattern '${PATTERN}' | xargs -n 1000 ${cli} unlink`]);
      if (run.code !== 0) throw new Error(`the anchor failed (${run.code}): ${run.stderr}`);
      return { seconds: run.seconds, cpu_seconds: run.cpuSeconds };
    });
    return {
      keys: n,
      value_bytes: valueBytes,
      pattern: PATTERN,
      expected_matches: expectedMatches(n),
      anchor: { name: `redis-cli --scan --pattern '${PATTERN}' | xargs -n 1000 redis-cli unlink`, ...anchor },
      default_pace: { ...paced, vs_anchor: r2(anchor.seconds / paced.seconds), ping_p99_rise_ms: r2(paced.ping_ms_during.p99 - idle.p99) },
      full_speed: { ...fast, vs_anchor: r2(anchor.seconds / fast.seconds), ping_p99_rise_ms: r2(fast.ping_ms_during.p99 - idle.p99) },
      ping_ms_idle: idle,
      exact_counts: true,
      load_average: { before: loadBefore, after: loadAverage() },
      goals: {
        default_pace_within_1_25x_server: paced.floor.wall_vs_server <= 1.25,
        default_pace_5x_anchor: anchor.seconds / paced.seconds >= 5,
        ping_p99_rise_under_2ms: paced.ping_ms_during.p99 - idle.p99 <= 2,
      },
    };
  });
}

/** The same deletion at the default pace over `n` keys (10M by default): its peak RSS, time and counts. */
export async function bigDeleteBench(dir: string, n: number, valueBytes: number): Promise<Record<string, unknown>> {
  return withSeededServer(dir, n, valueBytes, async (server) => {
    const loadBefore = loadAverage();
    const run = await cacheboardDelete(server, n, [], false);
    return { keys: n, ...run, load_average: { before: loadBefore, after: loadAverage() } };
  });
}
