import type { EventEmitter } from 'node:events';
import { AppError } from '../../../app/errors';
import { formatHostPort, type NodeAddress } from '../../../app/hostPort';
import type { SshSpec } from '../../../app/schemas/sshProfile';
import { SshTunnels, type SshRoute, type TunnelLease } from './ssh';
import { noteTunnelled } from './sshAddresses';
import { sshAppError } from './sshErrors';
import { withAskedPassphrases } from './sshPassphrases';
import { routeOf } from './sshRoute';
import type { ProfileSpec } from './types';

/**
 * One connection's way through a profile's SSH tunnel: Redis addresses as seen from the
 * last SSH server in, loopback ports out. Taken when a client is built and released when
 * it ends, so the tunnel closes with the last connection that uses it.
 */
export interface Via {
  forward(at: NodeAddress): NodeAddress;
  /** ioredis' natMap function form ("host:port" -> forwarded port), for cluster nodes and the master sentinels name. */
  natMap(key: string): NodeAddress | null;
  /** The "host:port" a forwarded loopback port stands for (undefined for any other). */
  behind(host: string, port: number): string | undefined;
  /** The tunnel's last error while it is down, for the connection state. */
  downReason(): string | undefined;
  ready(): Promise<void>;
  /**
   * Why the tunnel failed, when a connection through it did: the SSH error (a host key,
   * a refused login) if the chain reports one within `waitMs`, else undefined (the failure
   * was Redis's own, behind a working tunnel).
   */
  failure(waitMs?: number): Promise<AppError | undefined>;
  release(): void;
}

let tunnels: SshTunnels | undefined;
const routes = new Map<string, SshRoute>();

/** The process's tunnels: one SSH chain per route, whichever pool or job asks. */
export function sshTunnels(): SshTunnels {
  tunnels ??= new SshTunnels();
  return tunnels;
}

/** Close every tunnel (the CLI, on its way out). */
export async function closeAllTunnels(): Promise<void> {
  await tunnels?.closeAll();
}

function keyOf(ssh: SshSpec): string {
  return JSON.stringify(ssh);
}

/**
 * Resolve the profile's SSH route (the ssh config file is read here, and a key's passphrase asked
 * for when a prompt is installed) before viaFor is called synchronously while a client is built.
 * Resolved once per distinct settings.
 */
export async function prepareSsh(spec: ProfileSpec): Promise<void> {
  if (spec.ssh === undefined) return;
  const key = keyOf(spec.ssh);
  if (!routes.has(key)) routes.set(key, await withAskedPassphrases(await routeOf(spec.ssh)));
}

/** A lease on the profile's tunnel, or undefined for a profile without SSH. prepareSsh first. */
export function viaFor(spec: ProfileSpec): Via | undefined {
  if (spec.ssh === undefined) return undefined;
  const route = routes.get(keyOf(spec.ssh));
  if (route === undefined) throw new AppError('INTERNAL', `The SSH route of "${spec.name}" was not resolved before connecting.`);
  return wrap(sshTunnels().lease(route), route);
}

/** An ioredis node key ("host:port", "[v6]:port" or an unbracketed "v6:port") as an address. */
export function nodeKeyAddress(key: string): NodeAddress {
  const colon = key.lastIndexOf(':');
  return { host: key.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(key.slice(colon + 1)) };
}

function wrap(lease: TunnelLease, route: SshRoute): Via {
  const back = new Map<string, string>();
  let released = false;
  const forward = (at: NodeAddress): NodeAddress => {
    const address = formatHostPort(at);
    const local = lease.forward(address);
    back.set(`${local.host}:${local.port}`, address);
    return { host: local.host, port: local.port };
  };
  return {
    forward,
    natMap: (key) => forward(nodeKeyAddress(key)),
    behind: (host, port) => back.get(`${host.replace(/^::ffff:/, '')}:${port}`),
    downReason: () => {
      const s = lease.state();
      return s.state === 'down' ? `SSH tunnel down: ${s.error ?? 'unknown error'}` : undefined;
    },
    ready: () => lease.ready(),
    failure: async (waitMs = 500) => {
      const late = new AbortController();
      const timeout = new Promise<undefined>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        late.signal.addEventListener('abort', () => clearTimeout(timer));
      });
      const err = await Promise.race([
        lease.ready().then(
          () => undefined,
          (e: unknown) => e,
        ),
        timeout,
      ]);
      late.abort();
      if (err !== undefined) return sshAppError(err) ?? new AppError('UNREACHABLE', `SSH tunnel: ${String(err)}`, 'ssh');
      // Still connecting (an SSH server that does not answer, a slow jump): Redis was never dialled, so the SSH side is named.
      if (lease.state().state !== 'connecting') return undefined;
      const path = route.hops.map((h) => formatHostPort({ host: h.host, port: h.port ?? 22 })).join(' → ');
      return new AppError(
        'UNREACHABLE',
        `The SSH tunnel through ${path} is not up yet (no answer from the SSH server): check that it is reachable from here.`,
        'ssh',
      );
    },
    release: () => {
      if (released) return;
      released = true;
      lease.release();
    },
  };
}

/** Release `via` when `client` (an ioredis Redis or Cluster) ends for good; meanwhile its errors name the servers behind the tunnel. */
export function releaseOnEnd(client: EventEmitter, via: Via | undefined): void {
  if (via === undefined) return;
  noteTunnelled(client, via.behind);
  client.once('end', () => via.release());
}

/**
 * `use` with the tunnel `given`, or with a lease of the profile's own taken for the call and
 * released after it (one-shot work such as asking the sentinels): undefined without SSH.
 */
export async function withVia<T>(spec: ProfileSpec, given: Via | undefined, use: (via: Via | undefined) => Promise<T>): Promise<T> {
  if (given !== undefined || spec.ssh === undefined) return use(given);
  await prepareSsh(spec);
  const via = viaFor(spec);
  try {
    return await use(via);
  } finally {
    via?.release();
  }
}
