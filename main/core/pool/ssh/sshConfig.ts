import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { optionsForHost, parseSshConfig } from './sshConfigFile';
import { parseSshSpec } from './sshSpec';
import type { SshHop, SshRoute } from './types';

type Blocks = ReturnType<typeof parseSshConfig>;

/** OpenSSH's default identities, tried in its order when a host names none. */
const DEFAULT_IDENTITIES = ['id_ed25519', 'id_ecdsa', 'id_rsa'];
/** A ProxyJump chain longer than this is a loop in the config (a jumps through b, b through a). */
const MAX_DEPTH = 8;

/** Resolve `[user@]host[:port]` or a Host alias with an ssh config file into a route (ProxyJump → hops). */
export async function routeFromSshConfig(spec: string, opts: { configFile?: string; jumps?: string[] }): Promise<SshRoute> {
  const blocks = await readConfig(opts.configFile);
  const hops = opts.jumps !== undefined && opts.jumps.length > 0 ? [...jumpHops(blocks, opts.jumps, 0), resolveHop(blocks, spec)] : hopsFor(blocks, spec, 0);
  return { hops };
}

async function readConfig(file: string | undefined): Promise<Blocks> {
  const path = file ?? join(homedir(), '.ssh', 'config');
  // No ~/.ssh/config is the common case; a file the user named must exist.
  if (file === undefined && !existsSync(path)) return [];
  return parseSshConfig(await readFile(path, 'utf8'));
}

/** The hops to reach `spec`: its ProxyJump chain (resolved through the config too) then itself. */
function hopsFor(blocks: Blocks, spec: string, depth: number): SshHop[] {
  if (depth > MAX_DEPTH) throw new Error(`ProxyJump chain deeper than ${MAX_DEPTH} hops at "${spec}": a loop in the ssh config?`);
  const alias = parseSshSpec(spec).host;
  const proxyJump = optionsForHost(blocks, alias).get('proxyjump');
  const jumps = proxyJump === undefined || proxyJump.toLowerCase() === 'none' ? [] : proxyJump.split(',').filter((j) => j !== '');
  return [...jumpHops(blocks, jumps, depth + 1), resolveHop(blocks, spec)];
}

/**
 * `ssh -J a,b c` runs `ssh -J a b` for the second jump: only the first jump's own ProxyJump is followed,
 * later ones are reached through the jumps before them.
 */
function jumpHops(blocks: Blocks, jumps: readonly string[], depth: number): SshHop[] {
  const [first, ...rest] = jumps;
  if (first === undefined) return [];
  return [...hopsFor(blocks, first, depth), ...rest.map((j) => resolveHop(blocks, j))];
}

/** One hop: the spec's explicit user and port win over the config's, as on the ssh command line. */
function resolveHop(blocks: Blocks, spec: string): SshHop {
  const { host: alias, user, port } = parseSshSpec(spec);
  const options = optionsForHost(blocks, alias);
  const hostName = options.get('hostname');
  const hop: SshHop = { host: hostName === undefined ? alias : expandTokens(hostName, alias, undefined) };
  const configPort = options.get('port');
  const resolvedPort = port ?? (configPort === undefined ? undefined : Number(configPort));
  if (resolvedPort !== undefined) {
    if (!Number.isInteger(resolvedPort) || resolvedPort < 1 || resolvedPort > 65535) throw new Error(`Bad Port for SSH host "${alias}"`);
    hop.port = resolvedPort;
  }
  const resolvedUser = user ?? options.get('user');
  if (resolvedUser !== undefined) hop.user = resolvedUser;
  const identity = options.get('identityfile');
  if (identity !== undefined && identity.toLowerCase() !== 'none') {
    hop.keyFile = expandTokens(identity, alias, resolvedUser);
  } else if (identity === undefined) {
    const found = DEFAULT_IDENTITIES.map((name) => join(homedir(), '.ssh', name)).find((p) => existsSync(p));
    if (found !== undefined) hop.keyFile = found;
  }
  const agent = process.env['SSH_AUTH_SOCK'];
  if (agent !== undefined && agent !== '') hop.agent = agent;
  return hop;
}

/** `~` and the ssh_config tokens that make sense without a connection: %d %h %r %u %%. */
function expandTokens(value: string, host: string, user: string | undefined): string {
  const home = homedir();
  const withHome = value === '~' ? home : value.startsWith('~/') ? join(home, value.slice(2)) : value;
  return withHome.replace(/%([dhru%])/g, (_m, t: string) => {
    if (t === 'd') return home;
    if (t === 'h') return host;
    if (t === 'r') return user ?? userInfo().username;
    if (t === 'u') return userInfo().username;
    return '%';
  });
}
