import type { ClusterFacts, FailoverEvent, NodeSample } from '../../../app/schemas/metrics';
import { uncoveredSlots } from './clusterInfo';
import type { AlertKindName, TopologyEntry } from './types';

export type Severity = 'warning' | 'critical';

export interface AlertThresholds {
  lagBytes: number;
  lagSeconds: number;
  /** memory_high at or above this share of maxmemory. */
  memoryPercent: number;
}

export const DEFAULT_THRESHOLDS: AlertThresholds = { lagBytes: 1024 * 1024, lagSeconds: 10, memoryPercent: 90 };

export interface Condition {
  kind: AlertKindName;
  severity: Severity;
  address: string;
  message: string;
}

/** What one tick says: the conditions that hold, and every (kind, address) the tick could judge at all. */
export interface Verdict {
  firing: Map<string, Condition>;
  /** Keys whose condition was evaluated; an alert outside this set keeps its state (no data is no news). */
  judged: Set<string>;
}

export function alertKey(kind: AlertKindName, address: string): string {
  return `${kind}@${address}`;
}

const SEVERITY: Record<AlertKindName, Severity> = {
  node_unreachable: 'critical',
  node_slow: 'warning',
  node_restarted: 'warning',
  replica_link_down: 'critical',
  replication_lag: 'warning',
  memory_high: 'warning',
  rejected_connections: 'warning',
  bgsave_failed: 'critical',
  evictions: 'warning',
  cluster_state: 'critical',
  slots_uncovered: 'critical',
  failover: 'warning',
};

/** Cluster-wide alerts are not about one node: they are keyed under this name. */
export const CLUSTER_ALERT_ADDRESS = 'cluster';

/** What a tick knows beyond the nodes' own samples. */
export interface ProfileFacts {
  /** Cluster profiles: the worst CLUSTER INFO view; undefined when no node answered it. */
  cluster?: ClusterFacts | undefined;
  /** Failovers seen in this tick. */
  failovers?: readonly FailoverEvent[];
}

function mib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1048576).toFixed(1)} MiB` : `${bytes} bytes`;
}

class VerdictBuilder {
  readonly verdict: Verdict = { firing: new Map(), judged: new Set() };

  judge(kind: AlertKindName, address: string, fires: boolean, message: () => string): void {
    const key = alertKey(kind, address);
    this.verdict.judged.add(key);
    // Two sources may judge one key (a replica's own link, its master's list): any firing wins.
    if (fires && !this.verdict.firing.has(key)) {
      this.verdict.firing.set(key, { kind, severity: SEVERITY[kind], address, message: message() });
    }
  }
}

function judgeNode(b: VerdictBuilder, s: NodeSample, before: NodeSample | undefined, t: AlertThresholds): void {
  // A late answer on an open connection is a busy or paused server, not a lost one: a warning, not "down".
  const slow = s.status === 'slow';
  b.judge('node_slow', s.address, slow, () => `${s.address} is slow: ${s.error ?? 'no reply'}; its connection is open`);
  b.judge('node_unreachable', s.address, !s.up && !slow, () => `${s.address} does not answer: ${s.error ?? 'no reply'}`);
  if (!s.up) return;
  const uptime = s.uptimeSeconds === undefined ? '' : ` ${s.uptimeSeconds} s ago`;
  b.judge('node_restarted', s.address, s.restarted === true, () => `${s.address} restarted${uptime} (a new run_id): its data and counters start afresh`);
  const pct = s.memory?.percentOfMax ?? null;
  b.judge('memory_high', s.address, pct !== null && pct >= t.memoryPercent, () => `${s.address} uses ${pct}% of maxmemory`);
  const status = s.persistence?.rdbLastBgsaveStatus ?? 'ok';
  b.judge('bgsave_failed', s.address, status !== 'ok', () => `${s.address}: last background save failed (rdb_last_bgsave_status:${status})`);
  const evictions = s.traffic?.evictionsPerSec ?? 0;
  b.judge('evictions', s.address, evictions > 0, () => `${s.address} is evicting keys (${evictions}/s): it is at maxmemory`);
  // A restart resets the counter, so only an increase within one server run counts.
  const rejected = s.clients?.rejected ?? 0;
  const rejectedBefore = before?.up === true ? (before.clients?.rejected ?? rejected) : rejected;
  b.judge(
    'rejected_connections',
    s.address,
    rejected > rejectedBefore,
    () => `${s.address} refused ${rejected - rejectedBefore} connection(s) (maxclients reached)`,
  );
  const repl = s.replication;
  if (repl !== undefined && repl.role !== 'replica') {
    // A promoted replica (REPLICAOF NO ONE, a failover) has no master link left to be down or behind.
    b.judge('replica_link_down', s.address, false, () => '');
    b.judge('replication_lag', s.address, false, () => '');
  }
  if (repl?.role === 'replica') {
    const link = repl.masterLinkStatus ?? 'unknown';
    b.judge(
      'replica_link_down',
      s.address,
      link !== 'up',
      () =>
        `${s.address}: link to master ${repl.masterAddress ?? '?'} is ${link}` +
        (repl.masterLinkDownSinceSeconds === undefined ? '' : ` (for ${repl.masterLinkDownSinceSeconds} s)`),
    );
  }
  for (const r of repl?.replicas ?? []) {
    const lagging = r.lagBytes > t.lagBytes || r.lagSeconds > t.lagSeconds;
    b.judge('replication_lag', r.address, lagging, () => `${r.address} is ${mib(r.lagBytes)} / ${r.lagSeconds} s behind master ${s.address}`);
  }
}

/**
 * The alert conditions of one tick. `previous` holds each node's last sample
 * before this tick; `topology` says which master each replica belongs to, kept
 * even while the replica is down, so a master that stopped listing a replica
 * it had raises replica_link_down for it.
 */
export function judgeTick(
  samples: NodeSample[],
  previous: ReadonlyMap<string, NodeSample>,
  topology: TopologyEntry[],
  t: AlertThresholds,
  facts: ProfileFacts = {},
): Verdict {
  const b = new VerdictBuilder();
  const byAddress = new Map(samples.map((s) => [s.address, s]));
  for (const s of samples) judgeNode(b, s, previous.get(s.address), t);
  for (const n of topology) {
    const master = n.master === undefined ? undefined : byAddress.get(n.master);
    if (n.role !== 'replica' || master?.up !== true) continue;
    const listed = (master.replication?.replicas ?? []).some((r) => r.address === n.address);
    b.judge('replica_link_down', n.address, !listed, () => `master ${master.address} no longer lists replica ${n.address}`);
  }
  judgeProfile(b, facts);
  // Every answering node is judged for failover, so a raised one can clear after its quiet time.
  for (const s of samples) if (s.up) b.judge('failover', s.address, false, () => '');
  return b.verdict;
}

function judgeProfile(b: VerdictBuilder, facts: ProfileFacts): void {
  const c = facts.cluster;
  if (c !== undefined) {
    b.judge(
      'cluster_state',
      CLUSTER_ALERT_ADDRESS,
      c.state !== 'ok',
      () => `cluster_state is ${c.state} (as ${c.reportedBy} sees it): the cluster refuses queries`,
    );
    const missing = uncoveredSlots(c);
    b.judge(
      'slots_uncovered',
      CLUSTER_ALERT_ADDRESS,
      missing > 0 || c.slotsPfail > 0,
      () => `${missing} of 16384 slots not covered (assigned ${c.slotsAssigned}, fail ${c.slotsFail}, pfail ${c.slotsPfail}; ` + `as ${c.reportedBy} sees it)`,
    );
  }
  // A failover is news, not a state: it stays raised for the quiet time, like evictions.
  for (const f of facts.failovers ?? []) b.judge('failover', f.address, true, () => f.message);
}
