import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { SamplingReport } from '../app/schemas/sampling';
import type { CommandUsec } from '../main/core/audience/commandStats';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { runSampling, type SamplingSettings } from '../main/core/sampling/runSampling';
import type { SamplingTuning } from '../main/core/sampling/tuning';
import { connectionFor } from '../main/core/resp/rawTarget';
import { cliArgs } from '../testing/cli';
import { commandUsec, floorFigures, runChildWithCpu } from './floor';
import { argValue, loadAverage, runChild } from './measure';
import { writeSamplingData } from './samplingData';

const r2 = (n: number) => Math.round(n * 100) / 100;
const r3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The commands a script runs: INFO commandstats counts them under their own names AND inside
 * EVALSHA's usec, so the job's own time is its top-level commands only (SCAN, EVALSHA…), and
 * these are printed apart, as where the script's time went.
 */
const NESTED = new Set(['type', 'object|encoding', 'memory|usage', 'pttl', 'strlen', 'hlen', 'llen', 'scard', 'zcard', 'xlen']);

/**
 * The server's main thread CPU so far (INFO cpu, seconds). commandstats' usec is the commands'
 * own work; a pipelined command also costs the server its read, parse and reply, which only
 * this shows. Printed beside the floor so that a script (whose usec holds all of its work)
 * and plain commands (whose usec leaves the dispatch out) are compared on the same scale.
 */
async function serverCpu(admin: Redis): Promise<number> {
  const info = String(await admin.info('cpu'));
  const field = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return field('used_cpu_user_main_thread') + field('used_cpu_sys_main_thread');
}

/** The job's top-level commands between two snapshots: nested ones are dropped when scripts ran. */
function topLevel(before: CommandUsec, after: CommandUsec): { after: CommandUsec; nested: Record<string, number> } {
  const scripted = (after.get('evalsha') ?? 0) > (before.get('evalsha') ?? 0);
  if (!scripted) return { after, nested: {} };
  const kept: CommandUsec = new Map();
  const nested: Record<string, number> = {};
  for (const [name, usec] of after) {
    if (!NESTED.has(name)) kept.set(name, usec);
    else if (usec > (before.get(name) ?? 0)) nested[name] = r3((usec - (before.get(name) ?? 0)) / 1e6);
  }
  return { after: kept, nested };
}

/**
 * A keyspace of N keys (default 1M, the lloogg-like mix: 95% strings, 4.5% zsets,
 * the rest hashes, sets and lists; TTLs on two strings in three) in a private redis-server,
 * loaded with `redis-cli --pipe`. In the same run:
 * - the census as the user waits for it: `node bin/cacheboard.js sample --full --json`, process
 *   start to exit (`npm run build:main` first), with the process's CPU (runChildWithCpu) and the
 *   server's own time for the commands it sent (INFO commandstats before and after);
 * - the anchor `redis-cli --memkeys` (wall time);
 * - the census in this process, by Lua script per page and by plain commands, each with its
 *   server time: what the script saves the server;
 * - a 10,000-key sample compared with the census type by type.
 * `--skip-inprocess` and `--skip-sample` leave parts out (a 10M run).
 */
export async function samplingBench(): Promise<Record<string, unknown>> {
  const n = argValue('keys', 1_000_000);
  const samples = argValue('samples', 10_000);
  const skipInProcess = process.argv.includes('--skip-inprocess');
  const skipSample = process.argv.includes('--skip-sample');
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-sampling-'));
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  await admin.connect();
  const spec = { name: 'bench', host: server.host, port: server.port, db: 0, tls: { enabled: false, rejectUnauthorized: true } };
  const run = async (o: Partial<SamplingSettings>, tuning: Partial<SamplingTuning> = {}) => {
    const options: SamplingSettings = { method: 'census', samples, scanCount: 1000, pauseMs: 0, memorySamples: 5, db: 0, ...o };
    const before = await commandUsec(admin);
    const serverCpu0 = await serverCpu(admin);
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const end = await runSampling({ options, tuning, ...connectionFor(spec, 0, 'cacheboard:sampling:bench') }, () => undefined, new AbortController().signal);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    const after = await commandUsec(admin);
    const server_cpu_seconds = r3((await serverCpu(admin)) - serverCpu0);
    if (end.kind !== 'done') throw new Error(`${options.method} ended ${end.kind}: ${end.kind === 'failed' ? end.error.message : ''}`);
    const top = topLevel(before, after);
    const floor = floorFigures(before, top.after, seconds, (cpu.user + cpu.system) / 1e6);
    return {
      seconds,
      report: end.report,
      floor: { ...floor, server_cpu_seconds, wall_vs_server_cpu: r3(seconds / server_cpu_seconds), inside_scripts: top.nested },
    };
  };
  try {
    const file = join(dir, 'keyspace.resp');
    await writeSamplingData(file, n, 'lloogg');
    const cli = ['-h', server.host, '-p', String(server.port)];
    const load = await runChild('redis-cli', [...cli, '--pipe'], { stdinFile: file });
    if (load.code !== 0) throw new Error(`redis-cli --pipe failed: ${load.stderr}${load.stdout}`);
    rmSync(file);
    const dbsize = await admin.dbsize();
    if (dbsize !== n) throw new Error(`expected ${n} keys, found ${dbsize}`);

    // The census from the installed bin, as a cron job or a user at a terminal waits for it.
    const load_average_before = loadAverage();
    const before = await commandUsec(admin);
    const binServerCpu0 = await serverCpu(admin);
    const bin = await runChildWithCpu(process.execPath, cliArgs('sample', '--full', '--json', '--url', `redis://${server.host}:${server.port}/0`));
    const after = await commandUsec(admin);
    const binServerCpu = (await serverCpu(admin)) - binServerCpu0;
    if (bin.code !== 0) throw new Error(`cacheboard sample --full exited ${bin.code}: ${bin.stderr}`);
    const binReport = JSON.parse(bin.stdout) as { keys_examined: number; seconds: number };
    if (binReport.keys_examined !== n) throw new Error(`the census examined ${binReport.keys_examined} keys, not ${n}`);
    const binTop = topLevel(before, after);
    const binFloor = floorFigures(before, binTop.after, bin.seconds, bin.cpuSeconds);

    const memkeys = await runChild('redis-cli', [...cli, '--memkeys']);
    if (memkeys.code !== 0) throw new Error(`redis-cli --memkeys failed: ${memkeys.stderr}`);
    const load_average_after = loadAverage();

    const inProcess = skipInProcess ? null : { script: await run({}), plain: await run({}, { scripts: false }) };
    for (const r of inProcess === null ? [] : [inProcess.script, inProcess.plain]) {
      if (r.report.keysExamined !== n) throw new Error(`an in-process census examined ${r.report.keysExamined} keys, not ${n}`);
    }
    const sample = skipSample ? null : await run({ method: 'sample' });
    const reference = inProcess?.script.report;
    const compared = sample === null || reference === undefined ? null : compare(reference, sample.report);

    return {
      keys: n,
      mix: 'lloogg: 95% strings, 4.5% zsets, 0.5% hashes, sets and lists',
      load_average_before,
      load_average_after,
      anchor: { memkeys_seconds: r2(memkeys.seconds) },
      census_bin: {
        how: 'node bin/cacheboard.js sample --full --json, process start to exit',
        ...binFloor,
        server_cpu_seconds: r3(binServerCpu),
        wall_vs_server_cpu: r3(bin.seconds / binServerCpu),
        inside_scripts: binTop.nested,
        in_report_seconds: binReport.seconds,
        keys_per_sec: Math.round(n / bin.seconds),
        node_cpu_us_per_key: r2((bin.cpuSeconds * 1e6) / n),
        server_cpu_us_per_key: r2((binServerCpu * 1e6) / n),
        vs_memkeys: r2(memkeys.seconds / bin.seconds),
      },
      ...(inProcess === null
        ? {}
        : {
            census_in_process: {
              script: inProcess.script.floor,
              plain: inProcess.plain.floor,
              server_seconds_saved_by_script: r3(inProcess.plain.floor.server_seconds - inProcess.script.floor.server_seconds),
              server_cpu_seconds_saved_by_script: r3(inProcess.plain.floor.server_cpu_seconds - inProcess.script.floor.server_cpu_seconds),
              reports_identical: sameCounts(inProcess.script.report, inProcess.plain.report),
            },
          }),
      ...(sample === null || compared === null ? {} : { sample: { samples, seconds: r2(sample.seconds), ...compared } }),
      goals: {
        wall_within_1_25x_server: binFloor.wall_vs_server <= 1.25,
        census_4x_memkeys: memkeys.seconds / bin.seconds >= 4,
        ...(compared === null ? {} : { sample_within_1pp: compared.max_type_diff_pp <= 1 }),
      },
    };
  } finally {
    admin.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A sample's type shares against the census's. */
function compare(census: SamplingReport, sample: SamplingReport): { max_type_diff_pp: number; types_outside_ci95: string[] } {
  const share = (r: SamplingReport) => new Map(r.types.map((t) => [t.type, t.percent]));
  const exact = share(census);
  const drawn = share(sample);
  const types = new Set([...exact.keys(), ...drawn.keys()]);
  const maxDiff = Math.max(...[...types].map((t) => Math.abs((exact.get(t) ?? 0) - (drawn.get(t) ?? 0))));
  const outside = sample.types.filter((t) => (exact.get(t.type) ?? 0) < t.ciLow || (exact.get(t.type) ?? 0) > t.ciHigh).map((t) => t.type);
  return { max_type_diff_pp: r2(maxDiff), types_outside_ci95: outside };
}

/** Whether two censuses of one keyspace agree on every count (not on timing, nor on TTLs, which move between two runs). */
function sameCounts(a: SamplingReport, b: SamplingReport): boolean {
  const counts = (r: SamplingReport) => JSON.stringify([r.keysExamined, r.memoryTotal, r.types, r.encodings, r.sizeHistograms, r.lengthHistograms]);
  return counts(a) === counts(b);
}
