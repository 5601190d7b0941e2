import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { RpcClient } from '../app/rpcClient';
import type { ServerMessage } from '../app/wire';
import { freePort } from '../main/core/redisProcess/freePort';
import { cliArgs } from '../testing/cli';

/** `--name N` from the bench's command line, else the fallback. */
export function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

export interface ChildRun {
  seconds: number;
  stdout: string;
  stderr: string;
  code: number | null;
  /** Peak resident set of the child: its VmHWM, read from /proc every 20 ms until it exits. */
  peakRssBytes: number;
}

/** A process's memory figure from /proc/<pid>/status in bytes; 0 once it has exited. */
export function procMemory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The child's peak resident set so far (VmHWM: the kernel's high-water mark, so no spike between samples is missed). */
const peakRssOf = (pid: number): number => procMemory(pid, 'VmHWM');

/** Runs a command, timing it wall-clock and reading its peak RSS. */
export function runChild(cmd: string, args: string[], opts: { stdinFile?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    const timer = setInterval(() => {
      if (child.pid !== undefined) peak = Math.max(peak, peakRssOf(child.pid));
    }, 20);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    if (opts.stdinFile) {
      import('node:fs').then(({ createReadStream }) => createReadStream(opts.stdinFile as string).pipe(child.stdin));
    } else child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, stdout, stderr, code, peakRssBytes: peak });
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `cacheboard serve` started by a bench: its base URL, process and recent output. */
export interface ServeProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
  pid: number;
  /** The last ~4 kB the server printed, for error messages. */
  log(): string;
  /** SIGTERM, wait for the exit, remove the temporary data dir. */
  stop(): Promise<void>;
}

/** The machine's 1-minute load average now (/proc/loadavg): printed beside figures from a shared box. */
export function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

/** `--name a,b,c` from the bench's command line, else the fallback. */
export function argList(name: string, fallback: string[]): string[] {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? '').split(',').filter(Boolean) : fallback;
}

/** Resolves once `GET url/api/health` answers 200 (polled every 25 ms, so a start-up can be timed by it). */
export async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`cacheboard serve exited with ${child.exitCode}: ${log()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(25);
  }
  throw new Error(`cacheboard serve did not answer ${url}/api/health within 60 s: ${log()}`);
}

/**
 * `node bin/cacheboard.js serve` on a free loopback port against `redisUrl` (profile id
 * `env`), with a temporary data dir and no config file, once `GET /api/health` answers.
 * Loopback with no users is local mode: one ops session, no sign-in. `env` is added to the
 * server's environment; `onOutput` sees everything it prints (the soak scans all of stderr).
 */
export async function startServe(
  redisUrl: string,
  opts: { env?: NodeJS.ProcessEnv; onOutput?: (text: string, stream: 'stdout' | 'stderr') => void } = {},
): Promise<ServeProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cb-bench-serve-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let out = '';
  const child = spawn(process.execPath, cliArgs('serve'), {
    env: { ...process.env, ...opts.env, PORT: String(port), HOST: '127.0.0.1', REDIS_URL: redisUrl, CACHEBOARD_DATA_DIR: dataDir, CACHEBOARD_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (stream: 'stdout' | 'stderr') => (d: Buffer) => {
    out = (out + d.toString()).slice(-4000);
    opts.onOutput?.(d.toString(), stream);
  };
  child.stdout?.on('data', keep('stdout'));
  child.stderr?.on('data', keep('stderr'));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(base, child, () => out);
  } catch (e) {
    await stop();
    throw e;
  }
  return { base, pid: child.pid ?? 0, log: () => out, stop };
}

/**
 * An RpcClient over `/api/ws` of a started server, as the web build's bridge speaks it.
 * The Origin is the server's own, as a page it served would send.
 */
export async function wsRpc(base: string): Promise<{ rpc: RpcClient; close(): void }> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, { headers: { origin: base } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`/api/ws refused the upgrade: HTTP ${res.statusCode ?? '?'}`)));
  });
  const rpc = new RpcClient((m) => ws.send(JSON.stringify(m)));
  ws.on('message', (data) => rpc.receive(JSON.parse(String(data)) as ServerMessage));
  ws.on('close', () => rpc.disconnected('the WebSocket closed'));
  return { rpc, close: () => ws.close() };
}
