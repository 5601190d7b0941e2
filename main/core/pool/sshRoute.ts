import { homedir } from 'node:os';
import { join } from 'node:path';
import { formatHostPort } from '../../../app/hostPort';
import type { SshAuth, SshHopDraft, SshSpec } from '../../../app/schemas/sshProfile';
import { routeFromSshConfig, type SshHop, type SshRoute } from './ssh';

/** SSH's own keepalive default here: a dead bastion is noticed within about 45 s (3 missed). */
export const SSH_KEEPALIVE_MS = 15_000;

/** "[user@]host[:port]", the form ssh and routeFromSshConfig take. */
export function hopText(h: { host?: string | undefined; port?: number | undefined; user?: string | undefined }): string {
  const at = h.port === undefined ? (h.host ?? '') : formatHostPort({ host: h.host ?? '', port: h.port });
  return `${h.user === undefined ? '' : `${h.user}@`}${at}`;
}

function expandHome(path: string): string {
  return path === '~' ? homedir() : path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}

/** A hop with the profile's auth laid over what the ssh config gave it. */
function withAuth(hop: SshHop, auth: SshAuth | undefined, env: NodeJS.ProcessEnv): SshHop {
  if (auth === undefined) return hop;
  const { keyFile: _k, passphrase: _p, password: _pw, agent: _a, ...plain } = hop;
  if (auth.kind === 'key') return { ...plain, keyFile: expandHome(auth.keyFile), ...(auth.passphrase === undefined ? {} : { passphrase: auth.passphrase }) };
  if (auth.kind === 'password') return { ...plain, ...(auth.password === undefined ? {} : { password: auth.password }) };
  const socket = auth.socket ?? env.SSH_AUTH_SOCK;
  return { ...plain, ...(socket === undefined ? {} : { agent: socket }) };
}

/**
 * The route a profile's SSH settings name: the last server (typed or a Host alias) and the
 * jumps before it resolved through the ssh config file as OpenSSH would (HostName, User,
 * Port, IdentityFile, ProxyJump), then the auth typed in the profile laid over each hop.
 */
export async function routeOf(ssh: SshSpec, env: NodeJS.ProcessEnv = process.env): Promise<SshRoute> {
  const jumps: SshHopDraft[] = ssh.jumps ?? [];
  const route = await routeFromSshConfig(ssh.configHost ?? hopText(ssh), {
    ...(ssh.configFile === undefined ? {} : { configFile: expandHome(ssh.configFile) }),
    ...(jumps.length === 0 ? {} : { jumps: jumps.map(hopText) }),
  });
  const hops = route.hops.map((hop, i) => {
    const last = i === route.hops.length - 1;
    // Typed jumps are the first hops, in order; hops the config's ProxyJump added keep the config's auth.
    return withAuth(hop, last ? ssh.auth : jumps.length === route.hops.length - 1 ? jumps[i]?.auth : undefined, env);
  });
  return {
    ...route,
    hops,
    keepaliveMs: route.keepaliveMs ?? SSH_KEEPALIVE_MS,
    ...(ssh.knownHostsFile === undefined ? {} : { knownHostsFile: expandHome(ssh.knownHostsFile) }),
    ...(ssh.pinned === undefined ? {} : { pinned: { ...ssh.pinned } }),
  };
}
