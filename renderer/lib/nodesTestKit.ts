import type { NodeSample } from '../../app/schemas/metrics';

/** Test builders: an up master with replicas, an up replica, a down node. */
export function master(address: string, replicas: { address: string; lagBytes?: number; lagSeconds?: number; state?: string }[] = [], at = 0): NodeSample {
  return {
    address,
    at,
    up: true,
    role: 'master',
    version: '7.2.4',
    traffic: { opsPerSec: 100, inputKbps: 1, outputKbps: 2, hitRatio: 0.9, evictionsPerSec: 0, expirationsPerSec: 0 },
    memory: { used: 1000, peak: 2000, rss: 3000, fragmentation: 1.1, maxmemory: 0, percentOfMax: null },
    clients: { connected: 5, blocked: 0, rejected: 0 },
    replication: {
      role: 'master',
      masterReplOffset: 1000,
      replicas: replicas.map((r) => ({
        address: r.address,
        state: r.state ?? 'online',
        offset: 1000 - (r.lagBytes ?? 0),
        lagBytes: r.lagBytes ?? 0,
        lagSeconds: r.lagSeconds ?? 0,
      })),
    },
  };
}

export function replica(address: string, masterAddress: string, link: 'up' | 'down' = 'up', at = 0): NodeSample {
  return {
    address,
    at,
    up: true,
    role: 'slave',
    version: '7.2.4',
    traffic: { opsPerSec: 10, inputKbps: 1, outputKbps: 1, hitRatio: null, evictionsPerSec: 0, expirationsPerSec: 0 },
    memory: { used: 900, peak: 900, rss: 1000, fragmentation: 1.1, maxmemory: 0, percentOfMax: null },
    clients: { connected: 2, blocked: 0, rejected: 0 },
    replication: { role: 'slave', masterAddress, masterLinkStatus: link, masterReplOffset: 900, replicaOffset: 900, replicas: [] },
  };
}

export function down(address: string, at = 0): NodeSample {
  return { address, at, up: false, error: 'connect ECONNREFUSED' };
}
