import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../main/core/redisProcess/freePort';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { cliArgs } from '../testing/cli';
import { argValue, runChild, waitForHealth } from './measure';

const ms = (seconds: number) => Math.round(seconds * 1000);

/** Runs a command `runs` times; its wall times in ms, best first in `best`. */
async function bestOf(runs: number, cmd: string, args: string[]): Promise<{ best_ms: number; runs_ms: number[] }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await runChild(cmd, args);
    if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.code}): ${r.stderr}${r.stdout}`);
    times.push(ms(r.seconds));
  }
  return { best_ms: Math.min(...times), runs_ms: times };
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
 * load of an empty CSV (swap mode, into a private redis-server), best of `--runs` (default 5),
 * next to the anchor, a bare `node -e 0`; then `npm start` (renderer and main built, then
 * serve) until /api/health answers, next to `cacheboard serve` alone.
 */
export async function startBench(): Promise<Record<string, unknown>> {
  const runs = argValue('runs', 5);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-start-'));
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  try {
    const node = await bestOf(runs, process.execPath, ['-e', '0']);
    const version = await bestOf(runs, process.execPath, cliArgs('--version'));
    const csv = join(dir, 'empty.csv');
    writeFileSync(csv, 'id,value\n');
    const url = `redis://${server.host}:${server.port}/0`;
    const emptyLoad = await bestOf(runs, process.execPath, cliArgs('load', csv, '--url', url, '--key', 'key:{id}', '--value', 'value'));
    const serve = await timeToHealth(process.execPath, cliArgs('serve'));
    const npmStart = await timeToHealth('npm', ['start']);
    return {
      anchor: { name: 'node -e 0', ...node },
      version,
      empty_csv_load: emptyLoad,
      serve_to_health_ms: ms(serve),
      npm_start_to_health_ms: ms(npmStart),
      note: 'wall time from spawn to exit (to /api/health answering for serve and npm start); npm start builds the renderer and dist/main/ first',
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
