import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../../app/errors';
import { findRedisServer } from './findRedisServer';
import { freePort } from './freePort';
import { pingUntilReady } from './pingUntilReady';

export { findRedisServer } from './findRedisServer';

export interface SpawnRedisOptions {
  /** Fixed port; when absent a free one is picked (and re-picked if another process takes it first). */
  port?: number;
  /** Extra `--name value` arguments appended after ours, so they win. */
  args?: string[];
  /** Sets `requirepass`; the readiness PING authenticates with it. */
  password?: string;
  /** Working dir for RDB/AOF/nodes.conf. Given: kept on stop. Absent: a temp dir removed on stop. */
  dir?: string;
  /** How long to wait for the server to answer PING. */
  readyTimeoutMs?: number;
  /** Serve TLS only: `port` becomes the tls-port and the plain port is off. */
  tls?: { certFile: string; keyFile: string; caFile: string };
  /**
   * A config file read before the arguments. Sentinel needs one: it refuses to
   * start without a file it can rewrite with what it learns (replicas, peers, epochs).
   */
  configFile?: string;
}

export interface RedisProcess {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly dir: string;
  readonly pid: number;
  /** redis://[:password@]127.0.0.1:port (rediss:// with tls) */
  readonly url: string;
  /** SIGTERM, wait for exit (SIGKILL after 5 s), remove the temp dir. Idempotent. */
  stop(): Promise<void>;
  /** Send a signal now (SIGKILL by default) without waiting: for crash tests. */
  kill(signal?: NodeJS.Signals): void;
  /** Whether the process has exited. */
  exited(): boolean;
  /** The last lines the server logged (it logs to stdout with no logfile set). */
  log(): string;
}

const MAX_BIND_ATTEMPTS = 5;
const LOG_LINES = 200;

/** Servers still running, killed if this Node process exits without stopping them. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

export async function spawnRedisServer(opts: SpawnRedisOptions = {}): Promise<RedisProcess> {
  const bin = findRedisServer();
  if (bin === null) {
    throw new AppError('INTERNAL', 'redis-server not found on PATH; install it with: apt-get install redis-server');
  }
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'cacheboard-redis-'));
  try {
    for (let attempt = 1; ; attempt++) {
      const port = opts.port ?? (await freePort());
      const started = await startOnce(bin, port, dir, ownDir, opts);
      if (started.ok) return started.proc;
      const retry = opts.port === undefined && started.bindFailed && attempt < MAX_BIND_ATTEMPTS;
      if (!retry) {
        throw new AppError('INTERNAL', `redis-server did not start on 127.0.0.1:${port}: ${started.reason}`);
      }
    }
  } catch (err) {
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

type StartResult = { ok: true; proc: RedisProcess } | { ok: false; bindFailed: boolean; reason: string };

async function startOnce(bin: string, port: number, dir: string, ownDir: boolean, opts: SpawnRedisOptions): Promise<StartResult> {
  const listen = opts.tls
    ? [
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--tls-cert-file',
        opts.tls.certFile,
        '--tls-key-file',
        opts.tls.keyFile,
        '--tls-ca-cert-file',
        opts.tls.caFile,
        // Server-authenticated TLS only: clients need no certificate of their own.
        '--tls-auth-clients',
        'no',
      ]
    : ['--port', String(port)];
  const args = [
    ...(opts.configFile === undefined ? [] : [opts.configFile]),
    ...listen,
    '--bind',
    '127.0.0.1',
    // No RDB snapshots and no AOF: test and embedded servers are throwaway caches.
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
    ...(opts.password === undefined ? [] : ['--requirepass', opts.password]),
    ...(opts.args ?? []),
  ];
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  installExitHook();

  const lines: string[] = [];
  const onOutput = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      lines.push(line);
      if (lines.length > LOG_LINES) lines.shift();
    }
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);

  let exitCode: number | null = null;
  let spawnError: Error | undefined;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', (code) => {
      exitCode = code;
      live.delete(child);
      resolve();
    });
    child.once('error', (err) => {
      spawnError = err;
      live.delete(child);
      resolve();
    });
  });
  const gone = (): boolean => child.exitCode !== null || child.signalCode !== null || spawnError !== undefined;

  const ready = await pingUntilReady({
    host: '127.0.0.1',
    port,
    ...(opts.password === undefined ? {} : { password: opts.password }),
    pid: child.pid ?? -1,
    tls: opts.tls !== undefined,
    deadline: Date.now() + (opts.readyTimeoutMs ?? 10_000),
    gone,
  });
  if (!ready) {
    child.kill('SIGKILL');
    await exitedPromise;
    const log = lines.join('\n');
    // Redis logs "Could not create server TCP listening socket ... Address already in use" and exits 1.
    const bindFailed = /address already in use/i.test(log);
    const reason = spawnError?.message ?? (gone() ? `exited (code ${String(exitCode)})` : 'no PONG in time');
    return { ok: false, bindFailed, reason: `${reason}\n${lines.slice(-10).join('\n')}` };
  }

  let stopping: Promise<void> | undefined;
  const pid = child.pid ?? -1;
  const auth = opts.password === undefined ? '' : `:${encodeURIComponent(opts.password)}@`;
  const proc: RedisProcess = {
    host: '127.0.0.1',
    port,
    dir,
    pid,
    url: `${opts.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}`,
    exited: gone,
    log: () => lines.join('\n'),
    kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (!gone()) child.kill(signal);
    },
    stop() {
      stopping ??= (async () => {
        if (!gone()) {
          // SIGCONT first: a server paused with SIGSTOP in a test would never handle SIGTERM.
          child.kill('SIGCONT');
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exitedPromise;
          clearTimeout(killer);
        }
        if (ownDir) rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
  return { ok: true, proc };
}
