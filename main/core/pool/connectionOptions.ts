import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import type { RedisOptions } from 'ioredis';
import { AppError } from '../../../app/errors';
import type { Via } from './sshVia';
import { sentinelNatMap, tlsBehind, tunnelledSentinels } from './tunnelTls';
import type { ProfileSpec } from './types';

/** What a connection is for decides how it behaves when the server goes away. */
export type ConnectionKind = 'shared' | 'monitoring' | 'dedicated' | 'test';

export interface ConnectionTuning {
  db?: number;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  /** CLIENT SETNAME, so the pool's connections are recognisable in CLIENT LIST. */
  connectionName?: string;
  /** The profile's SSH tunnel (viaFor): every address is reached through a forwarded loopback port. */
  via?: Via | undefined;
}

export const DEFAULTS = {
  connectTimeoutMs: 5_000,
  sharedCommandTimeoutMs: 5_000,
  monitoringCommandTimeoutMs: 2_000,
  testConnectTimeoutMs: 3_000,
  /** Commands queued while a shared connection reconnects fail after this many reconnect attempts. */
  sharedMaxRetriesPerRequest: 2,
} as const;

/** 100 ms, 200 ms, 400 ms … capped at 5 s: quick recovery from a blip, no hammering a dead server. */
export function backoffMs(attempt: number): number {
  return Math.min(100 * 2 ** Math.max(0, attempt - 1), 5_000);
}

/** Throws VALIDATION on `tls.caFile` when TLS is on and the CA file is missing or unreadable. */
export function validateSpecFiles(spec: ProfileSpec): void {
  const caFile = spec.tls.enabled ? spec.tls.caFile : undefined;
  if (caFile === undefined) return;
  try {
    if (!statSync(caFile).isFile()) throw new Error('not a file');
    accessSync(caFile, constants.R_OK);
  } catch (err) {
    const why = (err as { code?: unknown }).code === 'EACCES' ? 'file not readable' : 'file not found';
    throw new AppError('VALIDATION', `tls.caFile: ${why}: ${caFile}`, 'tls.caFile');
  }
}

/** Node TLS options for the profile's nodes (and its sentinels), or undefined with TLS off. */
export function tlsOptions(spec: ProfileSpec): RedisOptions['tls'] {
  if (!spec.tls.enabled) return undefined;
  validateSpecFiles(spec);
  return {
    ...(spec.tls.caFile === undefined ? {} : { ca: readFileSync(spec.tls.caFile) }),
    // Node sends SNI and checks the certificate against `servername` when given, else the host.
    // Not defaulted to the host here: an IP address as SNI is refused by RFC 6066 (and Node warns).
    ...(spec.tls.servername === undefined ? {} : { servername: spec.tls.servername }),
    rejectUnauthorized: spec.tls.rejectUnauthorized,
  };
}

/**
 * A sentinel profile's connections ask the sentinels for the master on every
 * (re)connect, and ioredis' ready check refuses a node whose INFO role is not
 * master: after a failover a reconnect lands on the new master. Sentinel only
 * demotes a live old master (and kills its clients) about 8 s after it
 * switched, so the failover detector listens for +switch-master on the
 * sentinels and drops the connection at once instead of writing to a master
 * that is about to become a replica. Sentinels speak TLS when the profile
 * does, with the same CA and verification.
 */
function sentinelOptions(spec: ProfileSpec, kind: ConnectionKind, via: Via | undefined): RedisOptions {
  const t = spec.topology;
  if (t?.kind !== 'sentinel') return {};
  const tls = tlsOptions(spec);
  return {
    sentinels: t.sentinels.map((s) => (via === undefined ? { host: s.host, port: s.port } : via.forward(s))),
    // Through SSH, the master the sentinels name (and the sentinels they list) are addresses
    // seen from the last SSH server: each is reached through a port forwarded to it, and over
    // TLS each certificate is checked against that address, not the loopback one (tunnelTls.ts).
    ...(via === undefined ? {} : { natMap: sentinelNatMap(via, tls) }),
    ...(via === undefined || tls === undefined ? {} : { Connector: tunnelledSentinels(via, tls) }),
    name: t.masterName,
    role: 'master',
    ...(t.sentinelUsername === undefined ? {} : { sentinelUsername: t.sentinelUsername }),
    ...(t.sentinelPassword === undefined ? {} : { sentinelPassword: t.sentinelPassword }),
    ...(tls === undefined ? {} : { enableTLSForSentinelMode: true, sentinelTLS: tls }),
    // Without this ioredis walks the sentinel list forever; a test or a dedicated
    // connection must fail after one pass instead.
    sentinelRetryStrategy: kind === 'shared' || kind === 'monitoring' ? backoffMs : () => null,
    sentinelCommandTimeout: DEFAULTS.monitoringCommandTimeoutMs,
    failoverDetector: kind !== 'test',
  };
}

/**
 * ioredis options for one connection of a profile. All are lazyConnect: the
 * pool calls connect() itself so it can await readiness and map failures.
 */
export function toRedisOptions(spec: ProfileSpec, kind: ConnectionKind, tuning: ConnectionTuning = {}): RedisOptions {
  const connectTimeout = tuning.connectTimeoutMs ?? (kind === 'test' ? DEFAULTS.testConnectTimeoutMs : DEFAULTS.connectTimeoutMs);
  const via = tuning.via;
  const at = via === undefined || spec.topology?.kind === 'sentinel' ? { host: spec.host, port: spec.port } : via.forward(spec);
  const base: RedisOptions = {
    host: at.host,
    port: at.port,
    db: tuning.db ?? spec.db,
    connectTimeout,
    lazyConnect: true,
    // CLIENT SETINFO only exists from Redis 7.2; on older servers it is a wasted, failing round trip.
    disableClientInfo: true,
    ...(spec.username === undefined ? {} : { username: spec.username }),
    ...(spec.password === undefined ? {} : { password: spec.password }),
    ...(tuning.connectionName === undefined ? {} : { connectionName: tuning.connectionName }),
  };
  const tls = tlsOptions(spec);
  // Through SSH a standalone server's certificate is checked against its own host, not 127.0.0.1; a cluster's
  // or sentinel set's nodes each get theirs where they are dialled (clusterOptions.ts, sentinelOptions).
  if (tls !== undefined) base.tls = via === undefined || spec.topology !== undefined ? tls : tlsBehind(tls, spec.host);
  Object.assign(base, sentinelOptions(spec, kind, via));

  switch (kind) {
    case 'shared':
      return {
        ...base,
        commandTimeout: tuning.commandTimeoutMs ?? DEFAULTS.sharedCommandTimeoutMs,
        retryStrategy: backoffMs,
        // The offline queue rides out a short reconnect, but only for a bounded number of attempts.
        enableOfflineQueue: true,
        maxRetriesPerRequest: DEFAULTS.sharedMaxRetriesPerRequest,
        keepAlive: 30_000,
      };
    case 'monitoring':
      return {
        ...base,
        commandTimeout: tuning.commandTimeoutMs ?? DEFAULTS.monitoringCommandTimeoutMs,
        retryStrategy: backoffMs,
        // A poll that cannot be sent now is stale by the next tick: fail it instead of queueing.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        keepAlive: 30_000,
      };
    case 'dedicated':
      return {
        ...base,
        // No command timeout: MONITOR, blocking commands and bulk pipelines legitimately wait.
        ...(tuning.commandTimeoutMs === undefined ? {} : { commandTimeout: tuning.commandTimeoutMs }),
        // No reconnect: a bulk load must never silently resume on a fresh connection.
        retryStrategy: () => null,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
      };
    case 'test':
      return {
        ...base,
        commandTimeout: tuning.commandTimeoutMs ?? connectTimeout,
        retryStrategy: () => null,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
      };
  }
}
