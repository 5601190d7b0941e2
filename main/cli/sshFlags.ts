import { readFileSync } from 'node:fs';
import { AppError } from '../../app/errors';
import { parseHostPort } from '../../app/hostPort';
import type { SshAuth, SshDraft, SshHopDraft } from '../../app/schemas/sshProfile';
import { askPassphrasesWith } from '../core/pool/sshPassphrases';
import { ask } from './ttyAsk';

/** The SSH flags every command that takes --url also takes (node:util parseArgs options). */
export const SSH_OPTIONS = {
  ssh: { type: 'string' },
  'ssh-key': { type: 'string' },
  'ssh-password-stdin': { type: 'boolean' },
  'ssh-jump': { type: 'string', multiple: true },
  'ssh-known-hosts': { type: 'string' },
  'ssh-config': { type: 'string' },
} as const;

export const SSH_HELP = `Through SSH (the URL's host:port is then as seen from the last SSH server)
  --ssh [user@]host[:port]   the SSH server Redis is reached from, or a Host name
                             of the ssh config (HostName, User, Port, IdentityFile
                             and ProxyJump are honoured)
  --ssh-key FILE             private key for every SSH server (passphrase from
                             CACHEBOARD_SSH_PASSPHRASE, else asked on the terminal);
                             default: the ssh config's IdentityFile and the agent
                             (SSH_AUTH_SOCK)
  --ssh-password-stdin       read the last SSH server's password from stdin
  --ssh-jump [user@]host[:port]
                             a jump host before --ssh (repeat, in order);
                             replaces the config's ProxyJump
  --ssh-known-hosts FILE     host keys to trust (default ~/.ssh/known_hosts)
  --ssh-config FILE          ssh config to read (default ~/.ssh/config)
`;

export interface SshFlagValues {
  ssh?: string | undefined;
  'ssh-key'?: string | undefined;
  'ssh-password-stdin'?: boolean | undefined;
  'ssh-jump'?: string[] | undefined;
  'ssh-known-hosts'?: string | undefined;
  'ssh-config'?: string | undefined;
}

function refuse(flag: string, message: string): never {
  throw new AppError('VALIDATION', `--${flag} ${message}`, flag);
}

/** "[user@]host[:port]" as ssh takes it; the port stays unset when not typed, so the ssh config's Port applies. */
export function parseSshTarget(flag: string, raw: string): SshHopDraft {
  const s = raw.trim();
  const at = s.indexOf('@');
  const user = at === -1 ? undefined : s.slice(0, at);
  const rest = at === -1 ? s : s.slice(at + 1);
  if (user === '') refuse(flag, `"${raw}": the user before @ is empty`);
  const hasPort = /^\[[^\]]+\]:\d+$/.test(rest) || /^[^:[\]]+:\d+$/.test(rest);
  const a = parseHostPort(rest, 22);
  if ('error' in a) refuse(flag, `must be [user@]host[:port] or a Host name: ${a.error}`);
  return { host: a.host, ...(hasPort ? { port: a.port } : {}), ...(user === undefined ? {} : { user }) };
}

/**
 * The --ssh* flags as a profile's ssh settings, or undefined without --ssh (then any other
 * --ssh-* flag is refused). --ssh-key serves every hop; a password from stdin, the last one.
 * Secrets come from the environment and stdin, never from a flag (flags show in `ps`).
 */
export function sshFromFlags(v: SshFlagValues, env: NodeJS.ProcessEnv, readStdin: () => string = () => readFileSync(0, 'utf8')): SshDraft | undefined {
  if (v.ssh === undefined) {
    for (const flag of ['ssh-key', 'ssh-password-stdin', 'ssh-jump', 'ssh-known-hosts', 'ssh-config'] as const) {
      if (v[flag] !== undefined && v[flag] !== false) refuse(flag, 'needs --ssh');
    }
    return undefined;
  }
  if (v['ssh-key'] !== undefined && v['ssh-password-stdin'] === true) {
    refuse('ssh-password-stdin', 'and --ssh-key exclude each other: give one way to log in');
  }
  let key: SshAuth | undefined;
  if (v['ssh-key'] !== undefined) {
    if (v['ssh-key'].trim() === '') refuse('ssh-key', 'needs a file name');
    const passphrase = env.CACHEBOARD_SSH_PASSPHRASE;
    key = { kind: 'key', keyFile: v['ssh-key'], ...(passphrase === undefined || passphrase === '' ? {} : { passphrase }) };
  }
  let auth = key;
  if (v['ssh-password-stdin'] === true) {
    // A trailing newline (echo, a secret file) is not part of the password.
    const password = readStdin().replace(/\r?\n$/, '');
    if (password === '') refuse('ssh-password-stdin', 'read an empty password from stdin');
    auth = { kind: 'password', password };
  }
  const jumps = (v['ssh-jump'] ?? []).map((j) => ({ ...parseSshTarget('ssh-jump', j), ...(key === undefined ? {} : { auth: key }) }));
  return {
    ...parseSshTarget('ssh', v.ssh),
    ...(auth === undefined ? {} : { auth }),
    ...(jumps.length === 0 ? {} : { jumps }),
    ...(v['ssh-known-hosts'] === undefined ? {} : { knownHostsFile: v['ssh-known-hosts'] }),
    ...(v['ssh-config'] === undefined ? {} : { configFile: v['ssh-config'] }),
  };
}

/** The flag behind a profile's ssh.* field, for messages a shell user can act on. */
export function sshFlagOf(path: readonly string[]): string {
  const [, field] = path;
  if (field === 'jumps') return 'ssh-jump';
  if (field === 'auth') return path.includes('password') ? 'ssh-password-stdin' : 'ssh-key';
  if (field === 'knownHostsFile') return 'ssh-known-hosts';
  if (field === 'configFile') return 'ssh-config';
  return 'ssh';
}

/**
 * On a terminal without CACHEBOARD_SSH_PASSPHRASE, an encrypted key's passphrase is asked for
 * (once per key file, without echo) when the tunnel is first built, as ssh does. Without a
 * terminal nothing is asked: the login then fails, naming the key.
 */
export function promptSshPassphrases(env: NodeJS.ProcessEnv): void {
  const given = env.CACHEBOARD_SSH_PASSPHRASE !== undefined && env.CACHEBOARD_SSH_PASSPHRASE !== '';
  const tty = process.stdin.isTTY === true && process.stderr.isTTY === true;
  askPassphrasesWith(given || !tty ? undefined : (keyFile) => ask(`Enter passphrase for key '${keyFile}': `));
}
