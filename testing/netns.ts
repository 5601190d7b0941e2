import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '../main/core/jobs/pidAlive';

/**
 * A network namespace joined to its parent (the host, or another namespace) by a veth pair with a /30 of
 * 10.222.0.0/16. A server bound inside it on `addr` (or on its 127.0.0.1) is reachable from the parent only;
 * from the host, a namespace whose parent is another namespace is not reachable at all.
 */
export interface Netns {
  readonly name: string;
  /** This namespace's address on the link to its parent. */
  readonly addr: string;
  /** The parent's address on that link. */
  readonly parentAddr: string;
  /** Run a command inside the namespace and wait for it. */
  run(cmd: string, args: string[]): string;
  /** Start a long-running process inside the namespace. */
  spawn(cmd: string, args: string[]): ChildProcess;
  /** Kill every process inside and delete the namespace (its veth ends go with it). Idempotent. */
  destroy(): void;
}

const PREFIX = 'cb-';
let counter = 0;
const live = new Set<Netns>();
let hooked = false;

function ip(args: string[]): string {
  return execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

/** `ip netns exec` bind-mounts the files of /etc/netns/<name>/ over /etc/ for what it starts: a namespace's own hosts file. */
const NETNS_ETC = '/etc/netns';

function removeEtc(name: string): void {
  rmSync(join(NETNS_ETC, name), { recursive: true, force: true });
  try {
    rmdirSync(NETNS_ETC);
  } catch {
    // Not empty (another namespace's), or not there.
  }
}

function listEtc(): string[] {
  try {
    return readdirSync(NETNS_ETC);
  } catch {
    return [];
  }
}

/** Delete `cb-<pid>-<n>` namespaces (and their /etc/netns files) whose test process is gone (a crash or SIGKILL skipped their cleanup). */
export function sweepStaleNetns(): void {
  const names = new Set([
    ...ip(['netns', 'list'])
      .split('\n')
      .map((line) => line.split(' ')[0] ?? ''),
    ...listEtc(),
  ]);
  for (const name of names) {
    const m = /^cb-(\d+)-\d+$/.exec(name);
    if (!m || pidAlive(Number(m[1]))) continue;
    killInside(name);
    try {
      ip(['netns', 'del', name]);
    } catch {
      // Another sweeper got there first, or only its files were left.
    }
    removeEtc(name);
  }
}

function killInside(name: string): void {
  let pids: string[];
  try {
    pids = ip(['netns', 'pids', name])
      .split('\n')
      .filter((p) => p !== '');
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** A /30 per link, spread by pid so parallel test processes rarely collide (and are refused if they do). */
function linkAddresses(n: number): { parent: string; child: string } {
  const idx = (process.pid * 16 + n) % 16384;
  const third = idx >> 6;
  const fourth = (idx & 63) * 4;
  return { parent: `10.222.${third}.${fourth + 1}`, child: `10.222.${third}.${fourth + 2}` };
}

/**
 * `hosts`: lines of the namespace's own /etc/hosts (besides localhost), seen by every process started in it
 * afterwards (an sshd resolving the names a client asks it to forward to).
 */
export function createNetns(parent?: Netns, opts: { hosts?: string[] } = {}): Netns {
  if (counter === 0) sweepStaleNetns();
  installExitHook();
  const n = counter++;
  const name = `${PREFIX}${process.pid}-${n}`;
  const { parent: parentAddr, child: addr } = linkAddresses(n);
  const a = `cb${process.pid}x${n}a`;
  const b = `cb${process.pid}x${n}b`;
  ip(['netns', 'add', name]);
  const ns: Netns = {
    name,
    addr,
    parentAddr,
    run: (cmd, args) => execFileSync('ip', ['netns', 'exec', name, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' }),
    spawn: (cmd, args) => spawn('ip', ['netns', 'exec', name, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
    destroy: () => {
      if (!live.delete(ns)) return;
      killInside(name);
      try {
        ip(['netns', 'del', name]);
      } catch {
        // Already deleted.
      }
      removeEtc(name);
    },
  };
  live.add(ns);
  try {
    if (opts.hosts !== undefined) {
      mkdirSync(join(NETNS_ETC, name), { recursive: true });
      writeFileSync(join(NETNS_ETC, name, 'hosts'), ['127.0.0.1 localhost', '::1 localhost', ...opts.hosts, ''].join('\n'));
    }
    ip(['link', 'add', a, 'type', 'veth', 'peer', 'name', b]);
    ip(['link', 'set', b, 'netns', name]);
    if (parent !== undefined) ip(['link', 'set', a, 'netns', parent.name]);
    const inParent = (args: string[]): string => (parent === undefined ? ip(args) : ip(['-n', parent.name, ...args]));
    inParent(['addr', 'add', `${parentAddr}/30`, 'dev', a]);
    inParent(['link', 'set', a, 'up']);
    ip(['-n', name, 'addr', 'add', `${addr}/30`, 'dev', b]);
    ip(['-n', name, 'link', 'set', b, 'up']);
    ip(['-n', name, 'link', 'set', 'lo', 'up']);
  } catch (err) {
    ns.destroy();
    try {
      ip(['link', 'del', a]);
    } catch {
      // The pair went with the namespace.
    }
    throw err;
  }
  return ns;
}

export function destroyAllNetns(): void {
  for (const ns of [...live]) ns.destroy();
}

function installExitHook(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', destroyAllNetns);
}

/** A redis-server inside a namespace, bound there to `bind` (the first address is `host`); resolves once it answers PING. */
export async function startRedisIn(ns: Netns, binds: string[], port = 6379): Promise<{ host: string; port: number; stop(): void }> {
  const bind = binds[0] ?? ns.addr;
  const child = ns.spawn('redis-server', ['--port', String(port), '--bind', binds.join(' '), '--save', '', '--appendonly', 'no', '--protected-mode', 'no']);
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if (ns.run('redis-cli', ['-h', bind, '-p', String(port), 'PING']).trim() === 'PONG') break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`redis-server in ${ns.name} did not start on ${bind}:${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { host: bind, port, stop: () => child.kill('SIGKILL') };
}
