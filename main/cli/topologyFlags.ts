import { AppError } from '../../app/errors';
import { ProfileDraft, type ProfileSpec, type SshDraft, type TopologyDraft } from '../../app/schemas/connections';
import { promptSshPassphrases, SSH_HELP, SSH_OPTIONS, sshFlagOf, sshFromFlags, type SshFlagValues } from './sshFlags';

/** The flags every command that talks to Redis takes besides --url (node:util parseArgs options). */
export const TOPOLOGY_OPTIONS = {
  cluster: { type: 'boolean' },
  seeds: { type: 'string' },
  sentinel: { type: 'string' },
  'master-name': { type: 'string' },
  'sentinel-user': { type: 'string' },
  'sentinel-password': { type: 'string' },
  ...SSH_OPTIONS,
} as const;

export const TOPOLOGY_HELP = `Topology (default: the one server the URL names)
  --cluster             a Redis Cluster: the URL's host:port is a seed node
  --seeds h:p,h:p       more seed nodes, so one being down does not matter
  --sentinel h:p,h:p    through Sentinel: the sentinels' addresses (port 26379 if
                        left out); the URL then gives the master's user, password,
                        DB and TLS, and its host:port is one more sentinel
  --master-name NAME    with --sentinel: the name the master is monitored under
  --sentinel-user U     with --sentinel: the sentinels' own ACL user and password
  --sentinel-password P

${SSH_HELP}`;

export interface TopologyFlagValues extends SshFlagValues {
  url?: string | undefined;
  cluster?: boolean | undefined;
  seeds?: string | undefined;
  sentinel?: string | undefined;
  'master-name'?: string | undefined;
  'sentinel-user'?: string | undefined;
  'sentinel-password'?: string | undefined;
}

/** Where a command connects: a URL (--url or REDIS_URL) and the topology the flags chose. */
export interface ConnectionFlags {
  /** Absent only with --sentinel, whose sentinels say where the master is. */
  url?: string;
  topology?: TopologyDraft;
  ssh?: SshDraft;
}

function list(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function refuse(flag: string, message: string): never {
  throw new AppError('VALIDATION', `--${flag} ${message}`, flag);
}

/**
 * --url (else REDIS_URL) and the topology flags, checked for combinations that
 * make no sense; the addresses themselves are checked by the contract's schema
 * in specFromFlags, as the Connections page checks them.
 */
export function connectionFlags(v: TopologyFlagValues, env: NodeJS.ProcessEnv): ConnectionFlags {
  const url = v.url ?? (env.REDIS_URL === '' ? undefined : env.REDIS_URL);
  const sentinel = v.sentinel !== undefined;
  if (v.cluster && sentinel) refuse('sentinel', 'and --cluster exclude each other: a profile is one or the other');
  if (v.seeds !== undefined && !v.cluster) refuse('seeds', 'needs --cluster');
  for (const flag of ['master-name', 'sentinel-user', 'sentinel-password'] as const) {
    if (v[flag] !== undefined && !sentinel) refuse(flag, 'needs --sentinel');
  }
  if (url === undefined && !sentinel) {
    throw new AppError('VALIDATION', '--url is required (or set REDIS_URL)', 'url');
  }
  const out: ConnectionFlags = url === undefined ? {} : { url };
  const ssh = sshFromFlags(v, env);
  if (ssh !== undefined) {
    out.ssh = ssh;
    promptSshPassphrases(env);
  }
  if (v.cluster) out.topology = { kind: 'cluster', seeds: list(v.seeds ?? '') };
  if (sentinel) {
    if (v['master-name'] === undefined) refuse('master-name', 'is required with --sentinel: the name the sentinels monitor the master under');
    out.topology = {
      kind: 'sentinel',
      sentinels: list(v.sentinel ?? ''),
      masterName: v['master-name'],
      ...(v['sentinel-user'] === undefined ? {} : { sentinelUsername: v['sentinel-user'] }),
      ...(v['sentinel-password'] === undefined ? {} : { sentinelPassword: v['sentinel-password'] }),
    };
  }
  return out;
}

/** The flag behind a profile field, for messages a shell user can act on. */
function flagOf(path: readonly PropertyKey[]): string {
  const [first, second] = path.map(String);
  if (first === 'ssh') return sshFlagOf(path.map(String));
  if (first !== 'topology') return 'url';
  if (second === 'seeds') return 'seeds';
  if (second === 'sentinels') return 'sentinel';
  if (second === 'masterName') return 'master-name';
  if (second === 'sentinelUsername') return 'sentinel-user';
  if (second === 'sentinelPassword') return 'sentinel-password';
  return 'cluster';
}

/** The connection the flags name, checked like a profile; errors name the flag. */
export function specFromFlags(c: ConnectionFlags): ProfileSpec {
  const draft = ProfileDraft.safeParse({
    name: 'cli',
    ...(c.url === undefined ? {} : { url: c.url }),
    ...(c.topology === undefined ? {} : { topology: c.topology }),
    ...(c.ssh === undefined ? {} : { ssh: c.ssh }),
  });
  if (draft.success) return draft.data;
  const issue = draft.error.issues[0];
  const flag = flagOf(issue?.path ?? []);
  throw new AppError('VALIDATION', `--${flag}: ${issue?.message ?? 'invalid'}`, flag);
}
