/** One SSH server on the way to Redis. Secrets (passphrase, password) never go into errors or logs. */
export interface SshHop {
  host: string;
  port?: number;
  user?: string;
  /** Private key file; `~` is expanded by the caller (routeFromSshConfig does it). */
  keyFile?: string;
  passphrase?: string;
  password?: string;
  /** Path of an ssh-agent socket (SSH_AUTH_SOCK). */
  agent?: string;
}

export interface SshRoute {
  /** Hops in order; the last one is where Redis addresses are seen from. At least one. */
  hops: SshHop[];
  /** Desktop/CLI: verify against this known_hosts file (default ~/.ssh/known_hosts). */
  knownHostsFile?: string;
  /** Web build: 'host:port' -> 'SHA256:…' accepted by an ops user; when set, known_hosts is not used. */
  pinned?: Record<string, string>;
  keepaliveMs?: number;
}

export type HostKeyReason = 'unknown' | 'changed' | 'revoked';

export type TunnelStateName = 'connecting' | 'up' | 'down';

export interface TunnelState {
  state: TunnelStateName;
  error?: string;
}

export interface TunnelLease {
  /** A 127.0.0.1 port forwarding to `address` ('host:port' as seen from the last hop). Synchronous: the port is
   *  bound at once (so an ioredis natMap function can use it); the SSH chain connects on first use and is rebuilt
   *  after it dies (backoff, bounded), and connections made meanwhile wait or fail with a clear error. */
  forward(address: string): { host: string; port: number };
  /** 'connecting' | 'up' | 'down' with the last error (HostKeyError, auth failure, unreachable): for pages. */
  state(): TunnelState;
  /** Resolves when the chain is up or rejects with the first error (HostKeyError, auth…): used to test a profile. */
  ready(): Promise<void>;
  release(): void;
}
