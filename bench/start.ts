import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../main/core/redisProcess/freePort';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { cliArgs } from '../testing/cli';
import { argValue, loadAverage, runChild, waitForHealth } from './measure';

const ms = (seconds: number) => Math.round(seconds * 1000);
const r2 = (n: number) => Math.round(n * 100) / 100;

/** issue 34's goals, as multiples of a bare `node -e 0` measured beside them. */
const VERSION_GOAL = 2;
const EMPTY_LOAD_GOAL = 4;

/** One run of a command that must succeed: its wall time, ms. */
async function timedRun(cmd: string, args: string[]): Promise<number> {
  const r = await runChild(cmd, args);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return ms(r.seconds);
}

/**
 * From spawning `cmd` to `GET /api/health` answering, as a user starts the web build: no
 * REDIS_URL (a private redis-server is started), a fresh data dir. The command runs in its
 * own process group, so `npm start`'s shell and server are stopped with it.
 */
async function timeToHealth(cmd: string, args: string[]): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cb-bench-start-'));
  const port = await freePort();
  let out = '';
  const t0 = process.hrtime.bigint();
  const child = spawn(cmd, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', REDIS_URL: '', CACHEBOARD_CONFIG: '', CACHEBOARD_DATA_DIR: dataDir },
  });
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((r) => child.once('exit', r));
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, child, () => out);
    return Number(process.hrtime.bigint() - t0) / 1e9;
  } finally {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What a cron job or a monitoring script pays before any work: `cacheboard --version` and a
 * load of an empty CSV (swap mode, into a private redis-server), best of `--runs` (default 7),
 * side by side with the anchor, a bare `node -e 0`, and their ratios to it (goals: --version
 * within 2x, the empty load within 4x); then, unless `--skip-serve`, `npm start` (renderer and
 * main built, then serve) until /api/health answers, next to `cacheboard serve` alone.
 */
export async function startBench(): Promise<Record<string, unknown>> {
  const runs = argValue('runs', 7);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-start-'));
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  try {
    const load_average_before = loadAverage();
    const csv = join(dir, 'empty.csv');
    writeFileSync(csv, 'id,value\n');
    const url = `redis://${server.host}:${server.port}/0`;
    const loadArgs = cliArgs('load', csv, '--url', url, '--key', 'key:{id}', '--value', 'value');
    // Interleaved, one of each per round, so a busy moment of the shared machine falls on all three alike.
    const node: number[] = [];
    const version: number[] = [];
    const emptyLoad: number[] = [];
    for (let i = 0; i < runs; i++) {
      node.push(await timedRun(process.execPath, ['-e', '0']));
      version.push(await timedRun(process.execPath, cliArgs('--version')));
      emptyLoad.push(await timedRun(process.execPath, loadArgs));
    }
    const best = (xs: number[]) => ({ best_ms: Math.min(...xs), runs_ms: xs });
    const nodeBest = Math.min(...node);
    const versionRatio = r2(Math.min(...version) / nodeBest);
    const loadRatio = r2(Math.min(...emptyLoad) / nodeBest);
    const figures: Record<string, unknown> = {
      anchor: { name: 'node -e 0', ...best(node) },
      version: best(version),
      empty_csv_load: best(emptyLoad),
      version_vs_node: versionRatio,
      empty_load_vs_node: loadRatio,
      goals: { version_within_2x: versionRatio <= VERSION_GOAL, empty_load_within_4x: loadRatio <= EMPTY_LOAD_GOAL },
      load_average_before,
      load_average_after: loadAverage(),
    };
    if (process.argv.includes('--skip-serve')) return figures;
    const serve = await timeToHealth(process.execPath, cliArgs('serve'));
    const npmStart = await timeToHealth('npm', ['start']);
    return {
      ...figures,
      serve_to_health_ms: ms(serve),
      npm_start_to_health_ms: ms(npmStart),
      note: 'wall time from spawn to exit (to /api/health answering for serve and npm start); npm start builds the renderer and dist/main/ first',
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
