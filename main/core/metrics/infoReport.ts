import type { ClusterFacts, NodeSample } from '../../../app/schemas/metrics';
import type { PoolApi, TopologyKind } from '../pool/types';
import { worstView } from './clusterInfo';
import { deriveSample, failedSample } from './derive';
import { MAX_NODES } from './discovery';
import { pollNode, withTimeout } from './nodeInfo';
import { discoverProfile, type SentinelRecord } from './profileDiscovery';
import { joinReplicaLinks } from './replicaLinks';

/** One node in `cacheboard info --json`: snake_case, null where a down node tells nothing. */
export interface InfoJsonNode {
  address: string;
  role: string | null;
  up: boolean;
  ops_per_sec: number | null;
  used_memory: number | null;
  maxmemory: number | null;
  connected_clients: number | null;
  master_link_status: string | null;
  replicas: { address: string; state: string; offset: number; lag_bytes: number }[] | null;
  rdb_bgsave_in_progress: boolean | null;
  rdb_last_bgsave_status: string | null;
  keyspace: Record<string, { keys: number; expires: number }> | null;
  /** Commands the node refused, and what is null because of them (INFO: every figure). */
  restrictions?: { command: string; effect: string }[];
  /** Cluster profiles only: the master this node follows (replicas) or null, and the slot ranges it serves (masters). */
  master?: string | null;
  slots?: Array<[number, number]> | null;
}

/**
 * Standalone: `{nodes}` only, as it always was. Cluster and sentinel add
 * `topology`; a cluster its `cluster_state` and slot counts, a sentinel set
 * its sentinels.
 */
export interface InfoJson {
  topology?: 'cluster' | 'sentinel';
  cluster_state?: string | null;
  slots?: { assigned: number; ok: number; pfail: number; fail: number } | null;
  sentinels?: { address: string; healthy: boolean; flags: string[] }[];
  nodes: InfoJsonNode[];
}

export interface InfoSnapshot {
  mode: TopologyKind;
  samples: NodeSample[];
  /** Cluster: the slots each master serves, by address. */
  slots: Map<string, Array<[number, number]>>;
  /** Cluster: the master each replica follows, by address. */
  masters: Map<string, string>;
  cluster?: ClusterFacts | undefined;
  sentinels?: SentinelRecord[] | undefined;
}

/** How long one node may take to answer, connect included is bounded by the pool's own timeouts. */
const NODE_TIMEOUT_MS = 5_000;

/**
 * One snapshot of every node of the profile: a single INFO ALL per node (the
 * one discovery reads; a cluster node's CLUSTER INFO with it), in tree or
 * shard order. Rates have no previous poll to compare with, so they are the
 * server's own instantaneous figures.
 */
export async function snapshotProfile(pool: PoolApi, connectionId: string): Promise<InfoSnapshot> {
  const at = Date.now();
  const mode = pool.topology(connectionId);
  const views = new Map<string, Record<string, string>>();
  const d = await discoverProfile(
    pool,
    connectionId,
    async (address) => {
      const polled = await withTimeout(pollNode(pool, connectionId, address, mode === 'cluster'), NODE_TIMEOUT_MS, 'INFO ALL');
      if (polled.cluster !== undefined) views.set(address, polled.cluster);
      return polled.sections;
    },
    { maxNodes: MAX_NODES },
  );
  const samples = d.nodes.map((n) =>
    n.sections === undefined ? failedSample(n.address, at, n.error ?? 'unreachable') : deriveSample(n.address, at, n.sections).sample,
  );
  const slots = new Map(d.nodes.flatMap((n) => (n.slots === undefined ? [] : [[n.address, n.slots] as const])));
  const masters = new Map(d.nodes.flatMap((n) => (n.master === undefined ? [] : [[n.address, n.master] as const])));
  return {
    mode,
    samples: joinReplicaLinks(samples, (a) => d.aliases.get(a) ?? a),
    slots,
    masters,
    cluster: mode === 'cluster' ? worstView(views) : undefined,
    sentinels: d.sentinels,
  };
}

/** The samples of every node of the profile (see snapshotProfile). */
export async function snapshotAll(pool: PoolApi, connectionId: string): Promise<NodeSample[]> {
  return (await snapshotProfile(pool, connectionId)).samples;
}

function nodeJson(s: NodeSample): InfoJsonNode {
  const keyspace: Record<string, { keys: number; expires: number }> = {};
  for (const k of s.keyspace ?? []) keyspace[`db${k.db}`] = { keys: k.keys, expires: k.expires };
  return {
    address: s.address,
    role: s.role ?? null,
    up: s.up,
    ops_per_sec: s.traffic?.opsPerSec ?? null,
    used_memory: s.memory?.used ?? null,
    maxmemory: s.memory?.maxmemory ?? null,
    connected_clients: s.clients?.connected ?? null,
    master_link_status: s.replication?.masterLinkStatus ?? null,
    replicas: s.replication?.replicas.map((r) => ({ address: r.address, state: r.state, offset: r.offset, lag_bytes: r.lagBytes })) ?? null,
    rdb_bgsave_in_progress: s.persistence?.rdbBgsaveInProgress ?? null,
    rdb_last_bgsave_status: s.persistence?.rdbLastBgsaveStatus ?? null,
    keyspace: s.up && s.restrictions === undefined ? keyspace : null,
    ...(s.restrictions === undefined ? {} : { restrictions: s.restrictions }),
  };
}

export function toInfoJson(snapshot: NodeSample[] | InfoSnapshot): InfoJson {
  if (Array.isArray(snapshot)) return { nodes: snapshot.map(nodeJson) };
  const { mode, samples, cluster } = snapshot;
  if (mode === 'standalone') return { nodes: samples.map(nodeJson) };
  if (mode === 'sentinel') {
    return {
      topology: 'sentinel',
      sentinels: (snapshot.sentinels ?? []).map((s) => ({ address: s.address, healthy: s.healthy, flags: s.flags })),
      nodes: samples.map(nodeJson),
    };
  }
  return {
    topology: 'cluster',
    cluster_state: cluster?.state ?? null,
    slots: cluster === undefined ? null : { assigned: cluster.slotsAssigned, ok: cluster.slotsOk, pfail: cluster.slotsPfail, fail: cluster.slotsFail },
    nodes: samples.map((s) => ({
      ...nodeJson(s),
      master: snapshot.masters.get(s.address) ?? null,
      slots: snapshot.slots.get(s.address) ?? null,
    })),
  };
}
