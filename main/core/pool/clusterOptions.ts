import type { ClusterNode, ClusterOptions } from 'ioredis';
import { backoffMs, DEFAULTS, toRedisOptions, type ConnectionKind, type ConnectionTuning } from './connectionOptions';
import { nodeKeyAddress } from './sshVia';
import { clusterDial } from './tunnelTls';
import type { ProfileSpec } from './types';

/**
 * ioredis Cluster options for one client of a cluster profile. Every node
 * connection gets the profile's credentials, TLS and client name through
 * redisOptions. DB is always 0: SELECT is refused in cluster mode.
 */
export function toClusterOptions(spec: ProfileSpec, kind: ConnectionKind, tuning: ConnectionTuning = {}): { seeds: ClusterNode[]; options: ClusterOptions } {
  const seeds = spec.topology?.kind === 'cluster' ? spec.topology.seeds : [{ host: spec.host, port: spec.port }];
  // The per-node options a standalone connection of this kind would get, minus
  // what ioredis' Cluster sets itself or refuses in redisOptions.
  const {
    host: _host,
    port: _port,
    db: _db,
    retryStrategy: _retry,
    enableOfflineQueue: _offline,
    sentinels: _sentinels,
    lazyConnect: _lazy,
    ...node
  } = toRedisOptions({ ...spec, db: 0 }, kind, { ...tuning, db: 0 });
  const reconnects = kind === 'shared' || kind === 'monitoring';
  const via = tuning.via;
  // Through SSH, every node the cluster announces (slot map, MOVED, ASK) is an address seen from the
  // last SSH server: ioredis asks natMap for the loopback port forwarded to it, and over TLS the node
  // carries its own options, checked against that address (tunnelTls.ts).
  const dial = via === undefined ? undefined : clusterDial(via, node.tls);
  return {
    seeds: seeds.map((s) => (dial === undefined ? { host: s.host, port: s.port } : dial(s))),
    options: {
      lazyConnect: true,
      ...(dial === undefined ? {} : { natMap: (key: string) => dial(nodeKeyAddress(key)) }),
      redisOptions: node,
      // Reads go to masters: a replica may lag, and the jobs report what the data is.
      scaleReads: 'master',
      enableOfflineQueue: kind === 'shared',
      // The whole cluster unreachable: retry with the pool's backoff, or never for one-shot clients.
      clusterRetryStrategy: reconnects ? backoffMs : () => null,
      // MOVED/ASK are followed by ioredis; a few redirections cover a resharding, more is a loop.
      maxRedirections: 16,
      // A slot map older than this is refreshed even without a MOVED (new replicas, failovers).
      slotsRefreshInterval: 5_000,
      slotsRefreshTimeout: tuning.commandTimeoutMs ?? DEFAULTS.monitoringCommandTimeoutMs,
    },
  };
}
