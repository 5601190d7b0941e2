import { Redis } from 'ioredis';
import type { RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { cliArgs } from '../testing/cli';
import { floorFigures, runChildWithCpu } from './floor';
import { jobUsec } from './jobUsec';
import { expectedTop } from './keysData';
import { loadAverage } from './measure';
import { startPingProbe, windowStats, type PingFigures } from './pingProbe';

const r2 = (n: number) => Math.round(n * 100) / 100;
const IDLE_MS = 2_000;

/** issue 34's goals: the walk within 1.25x the server's own time for it, the pace within its PING budget. */
const FLOOR_GOAL = 1.25;
const PING_RISE_BUDGET_MS = 2;

type Floor = ReturnType<typeof floorFigures>;

/** One command line run with runChildWithCpu, the server's time for what it sent beside it. */
async function floorRun(admin: Redis, cmd: string, args: string[]): Promise<{ floor: Floor; stdout: string }> {
  const before = await jobUsec(admin);
  const run = await runChildWithCpu(cmd, args);
  const after = await jobUsec(admin);
  if (run.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${run.code}): ${run.stderr}`);
  return { floor: floorFigures(before, after, run.seconds, run.cpuSeconds), stdout: run.stdout };
}

interface CliTreeRun {
  anchor: Floor;
  cli: Floor & { ping_ms_idle: PingFigures; ping_ms_during: PingFigures; ping_p99_rise_ms: number };
  cli_vs_anchor: number;
  exact_counts: boolean;
  load_average_before: number;
  load_average_after: number;
}

/** The depth-1 counts of `keys tree --json` against the generator's. */
function exactTop(stdout: string, n: number): boolean {
  const out = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { total?: number; nodes?: { prefix: string; count: number }[] };
  const got = new Map((out.nodes ?? []).map((x) => [x.prefix, x.count]));
  return out.total === n && [...expectedTop(n)].every(([k, c]) => got.get(k) === c);
}

async function cliTreeRun(server: RedisProcess, admin: Redis, n: number): Promise<CliTreeRun> {
  const load_average_before = loadAverage();
  const hp = ['-h', server.host, '-p', String(server.port)];
  const anchor = await floorRun(admin, 'sh', ['-c', `redis-cli ${hp.join(' ')} --scan | wc -l`]);
  if (Number(anchor.stdout.trim()) !== n) throw new Error(`redis-cli --scan counted ${anchor.stdout.trim()} keys, not ${n}`);
  const probe = await startPingProbe(server);
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const t0 = performance.timeOrigin + performance.now();
  const url = `redis://${server.host}:${server.port}/0`;
  const cli = await floorRun(admin, process.execPath, cliArgs('keys', 'tree', '--url', url, '--depth', '1', '--limit', '1000', '--json'));
  const t1 = performance.timeOrigin + performance.now();
  const samples = await probe.stop();
  const idle = windowStats(samples, t0 - IDLE_MS + 200, t0);
  const during = windowStats(samples, t0, t1);
  return {
    anchor: anchor.floor,
    cli: { ...cli.floor, ping_ms_idle: idle, ping_ms_during: during, ping_p99_rise_ms: r2(during.p99 - idle.p99) },
    cli_vs_anchor: r2(anchor.floor.wall_seconds / cli.floor.wall_seconds),
    exact_counts: exactTop(cli.stdout, n),
    load_average_before,
    load_average_after: loadAverage(),
  };
}

/**
 * The tree as a cron job gets it: `cacheboard keys tree --json` (the installed bin, default pace,
 * process start to exit, its CPU time from runChildWithCpu), beside the anchor
 * `redis-cli --scan | wc -l` in the same run, each with the server's own time for the commands
 * it sent (INFO commandstats, the probe's PINGs left out), `runs` times on the seeded `server`.
 */
export async function keysTreeCliBench(server: RedisProcess, n: number, runs: number): Promise<Record<string, unknown>> {
  const admin = new Redis({ host: server.host, port: server.port });
  try {
    const out: CliTreeRun[] = [];
    for (let i = 0; i < runs; i++) out.push(await cliTreeRun(server, admin, n));
    return {
      how: 'node bin/cacheboard.js keys tree --depth 1 --json, process start to exit, default pace; server_seconds from INFO commandstats; node_cpu_seconds user+sys of the process (for the anchor: of redis-cli and wc)',
      runs: out,
      goals: {
        wall_within_1_25x_server_runs: out.map((r) => r.cli.wall_vs_server <= FLOOR_GOAL),
        ping_p99_rise_within_budget_runs: out.map((r) => r.cli.ping_p99_rise_ms <= PING_RISE_BUDGET_MS),
        exact_counts: out.every((r) => r.exact_counts),
      },
    };
  } finally {
    admin.disconnect();
  }
}
