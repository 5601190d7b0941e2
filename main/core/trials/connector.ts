import { isIP } from 'node:net';
import type { Redis } from 'ioredis';
import type { ProfileSpec } from '../../../app/schemas/connections';
import { openRawConnection, type RawConnection } from '../resp/rawConnection';
import { singleProfilePool } from '../pool/singleProfilePool';
import type { PoolApi } from '../pool/types';

/** How a trial reaches the server: its own raw sockets, and ioredis clients for the multiplex trial. */
export interface TrialConnector {
  /** "host:port" the trial's connections go to (the proxy's, when there is one). */
  readonly address: string;
  /** A raw socket of the trial's own on `db`, named for CLIENT LIST; the caller closes it. */
  raw(db: number, name: string): Promise<RawConnection>;
  /** The multiplexed connection for `db`, shared with every other caller (pool.shared). */
  shared(db: number): Promise<Redis>;
  /** An ioredis connection of the trial's own, for the blocking client that SELECTs. */
  dedicated(db: number): Promise<{ redis: Redis; release(): Promise<void> }>;
  /** Closes what the connector opened for itself (not the shared pool's connections). */
  close(): Promise<void>;
}

/** Through the app's pool: the profile's shared connection per DB, as every other call uses. */
export function poolConnector(spec: ProfileSpec, pool: PoolApi, profileId: string): TrialConnector {
  return {
    address: `${spec.host}:${spec.port}`,
    raw: (db, name) => openRawConnection(spec, db, { name }),
    shared: (db) => pool.shared(profileId, db),
    dedicated: (db) => pool.dedicated(profileId, { purpose: 'blocking', db }),
    close: () => Promise.resolve(),
  };
}

const PRIVATE_PROFILE = 'trial';

/**
 * A pool of the trial's own over `spec`: for the CLI (no app pool), and for a run
 * through the latency proxy, whose connections must not replace the profile's.
 */
export function privateConnector(spec: ProfileSpec): TrialConnector {
  const pool = singleProfilePool(spec, PRIVATE_PROFILE);
  return { ...poolConnector(spec, pool, PRIVATE_PROFILE), close: () => pool.shutdown() };
}

/**
 * The profile aimed at the proxy. TLS still verifies the real server: its
 * certificate names the server's host, not 127.0.0.1, so that host becomes the
 * server name to check (an IP address cannot be one: set tls.servername then).
 */
export function proxiedSpec(spec: ProfileSpec, proxy: { host: string; port: number }): ProfileSpec {
  const tls = spec.tls.enabled && spec.tls.servername === undefined && isIP(spec.host) === 0 ? { ...spec.tls, servername: spec.host } : spec.tls;
  return { ...spec, host: proxy.host, port: proxy.port, tls };
}
