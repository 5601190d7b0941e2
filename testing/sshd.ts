import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Netns } from './netns';

const SSHD = process.env['SSHD_PATH'] ?? '/usr/sbin/sshd';

/** Install Debian's openssh-server when sshd is missing (scripts/ensure-sshd.sh). */
export function ensureSshd(): void {
  if (existsSync(SSHD)) return;
  execFileSync('bash', [join(__dirname, '..', 'scripts', 'ensure-sshd.sh')], { stdio: 'inherit' });
}

export interface UserKey {
  privateFile: string;
  /** The `authorized_keys` line. */
  publicLine: string;
}

/** A fresh ed25519 key pair in `dir` (encrypted with `passphrase` when given). */
export function makeUserKey(dir: string, name: string, passphrase = ''): UserKey {
  const privateFile = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', name, '-f', privateFile], { stdio: 'pipe' });
  return { privateFile, publicLine: readFileSync(`${privateFile}.pub`, 'utf8').trim() };
}

export interface SshdOptions {
  /** Run inside this namespace, listening on its link address (default: the host's 127.0.0.1). */
  netns?: Netns;
  port?: number;
  authorizedKeys?: string[];
  /** Turn password authentication on (for a user made with createPasswordUser). */
  passwords?: boolean;
}

export interface Sshd {
  readonly host: string;
  readonly port: number;
  readonly dir: string;
  /** `ssh-keygen -lf` of the host key: `SHA256:…`. */
  readonly fingerprint: string;
  /** A known_hosts line for this server. */
  knownHostsLine(): string;
  /** SIGKILL the listener and every session it forked (the tunnels through it die at once). */
  kill(): void;
  /** SIGSTOP (true) or SIGCONT (false) the listener and its sessions: TCP stays open, SSH goes silent. */
  freeze(frozen: boolean): void;
  /** Start again with the same config, host key and port. */
  restart(): Promise<void>;
  stop(): void;
}

const running = new Set<Sshd>();

/** A real OpenSSH sshd with its own host key, config and authorized_keys, in the foreground (-D), logging to stderr (-e). */
export async function startSshd(opts: SshdOptions = {}): Promise<Sshd> {
  ensureSshd();
  // sshd refuses to start without its privilege-separation directory.
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = mkdtempSync(join(tmpdir(), 'cacheboard-sshd-'));
  const hostKey = join(dir, 'ssh_host_ed25519_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey], { stdio: 'pipe' });
  writeFileSync(join(dir, 'authorized_keys'), `${(opts.authorizedKeys ?? []).join('\n')}\n`, { mode: 0o600 });
  const host = opts.netns?.addr ?? '127.0.0.1';
  const port = opts.port ?? (opts.netns === undefined ? await freeHostPort() : 22);
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      `ListenAddress ${host}`,
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      // The temp dir sits under the world-writable /tmp, which StrictModes rejects.
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'PubkeyAuthentication yes',
      `PasswordAuthentication ${opts.passwords === true ? 'yes' : 'no'}`,
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'AllowTcpForwarding yes',
      'AllowAgentForwarding yes',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  const fingerprint = (execFileSync('ssh-keygen', ['-lf', `${hostKey}.pub`], { encoding: 'utf8' }).split(' ')[1] ?? '').trim();
  const hostPub = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  let child: ChildProcess | undefined;
  let log = '';
  const launch = async (): Promise<void> => {
    const args = ['-D', '-e', '-f', config];
    child = opts.netns === undefined ? spawn(SSHD, args, { stdio: ['ignore', 'pipe', 'pipe'] }) : opts.netns.spawn(SSHD, args);
    child.stdout?.resume();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sshd did not start on ${host}:${port}:\n${log}`)), 10_000);
      child?.stderr?.on('data', (d: Buffer) => {
        log = (log + d.toString()).slice(-20_000);
        if (log.includes('Server listening on')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child?.once('exit', () => {
        clearTimeout(timer);
        reject(new Error(`sshd exited at start:\n${log}`));
      });
    });
  };
  const sshd: Sshd = {
    host,
    port,
    dir,
    fingerprint,
    knownHostsLine: () => `${port === 22 ? host : `[${host}]:${port}`} ${hostPub}`,
    kill: () => {
      if (child?.pid !== undefined) killTree(child.pid);
    },
    freeze: (frozen) => {
      if (child?.pid !== undefined) signalTree(child.pid, frozen ? 'SIGSTOP' : 'SIGCONT');
    },
    restart: async () => {
      sshd.kill();
      log = '';
      await launch();
    },
    stop: () => {
      sshd.kill();
      running.delete(sshd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await launch();
  running.add(sshd);
  return sshd;
}

export function stopAllSshd(): void {
  for (const s of [...running]) s.stop();
}

/** SIGKILL a process and its descendants by pid (the per-connection sshd children hold the live sessions). */
function killTree(pid: number): void {
  signalTree(pid, 'SIGKILL');
}

function signalTree(pid: number, signal: NodeJS.Signals): void {
  let children: number[] = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0);
  } catch {
    // No children (ps exits 1).
  }
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
  for (const c of children) signalTree(c, signal);
}

async function freeHostPort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === 'object' && addr !== null ? addr.port : 0));
    });
  });
}

export interface PasswordUser {
  name: string;
  password: string;
  remove(): void;
}

/** A throwaway local user with a password (root's password is never touched). */
export function createPasswordUser(): PasswordUser {
  const name = `cbssh${process.pid}`;
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  try {
    execFileSync('userdel', [name], { stdio: 'pipe' });
  } catch {
    // Not left over from an earlier run.
  }
  execFileSync('useradd', ['-M', '-s', '/bin/sh', name], { stdio: 'pipe' });
  execFileSync('chpasswd', [], { input: `${name}:${password}\n`, stdio: ['pipe', 'pipe', 'pipe'] });
  return { name, password, remove: () => execFileSync('userdel', [name], { stdio: 'pipe' }) };
}

export interface Agent {
  sock: string;
  stop(): void;
}

/** A private ssh-agent on its own socket holding `keyFile`. */
export function startAgent(dir: string, keyFile: string): Agent {
  const sock = join(dir, `agent-${process.pid}.sock`);
  const out = execFileSync('ssh-agent', ['-s', '-a', sock], { encoding: 'utf8' });
  const pid = Number(/SSH_AGENT_PID=(\d+)/.exec(out)?.[1]);
  execFileSync('ssh-add', ['-q', keyFile], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'pipe' });
  return {
    sock,
    stop: () => {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    },
  };
}
