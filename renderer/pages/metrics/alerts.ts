import type { z } from 'zod';
import type { Alert, AlertKind } from '../../../app/schemas/metrics';

export type AlertMap = ReadonlyMap<string, Alert>;

/** Resolved alerts kept for the record, newest first. */
export const MAX_RESOLVED = 50;

/** Typed by the contract's enum, so a new kind is a compile error here rather than a blank label. */
export const ALERT_LABELS: Record<z.output<typeof AlertKind>, string> = {
  node_unreachable: 'Node unreachable',
  node_slow: 'Node slow',
  node_restarted: 'Node restarted',
  replica_link_down: 'Replica link down',
  replication_lag: 'Replication lag',
  memory_high: 'Memory high',
  rejected_connections: 'Rejected connections',
  bgsave_failed: 'BGSAVE failed',
  evictions: 'Evictions',
  cluster_state: 'Cluster state',
  slots_uncovered: 'Slots not covered',
  failover: 'Failover',
};

/**
 * Fold raises and resolves by id. A resolve is final: the same alert arriving
 * active again (both streams replay, in any order) does not reopen it.
 */
export function foldAlerts(map: AlertMap, incoming: readonly Alert[]): AlertMap {
  if (incoming.length === 0) return map;
  const next = new Map(map);
  for (const a of incoming) {
    const had = next.get(a.id);
    if (had?.resolvedAt !== undefined && a.resolvedAt === undefined) continue;
    next.set(a.id, a);
  }
  const resolved = [...next.values()].filter((a) => a.resolvedAt !== undefined);
  if (resolved.length > MAX_RESOLVED) {
    resolved.sort((a, b) => (b.resolvedAt ?? 0) - (a.resolvedAt ?? 0));
    for (const a of resolved.slice(MAX_RESOLVED)) next.delete(a.id);
  }
  return next;
}

/**
 * Before a fresh subscription: active alerts are forgotten (the stream sends the
 * ones still active first), resolved ones stay for the record. Otherwise an alert
 * resolved while we were disconnected would stay red forever.
 */
export function forgetActive(map: AlertMap): AlertMap {
  const next = new Map([...map].filter(([, a]) => a.resolvedAt !== undefined));
  return next.size === map.size ? map : next;
}

export interface AlertGroups {
  /** Critical first, then the most recent. */
  active: Alert[];
  /** Most recently resolved first. */
  resolved: Alert[];
}

export function groupAlerts(map: AlertMap): AlertGroups {
  const active: Alert[] = [];
  const resolved: Alert[] = [];
  for (const a of map.values()) (a.resolvedAt === undefined ? active : resolved).push(a);
  const rank = (a: Alert) => (a.severity === 'critical' ? 0 : 1);
  active.sort((a, b) => rank(a) - rank(b) || b.since - a.since || a.address.localeCompare(b.address));
  resolved.sort((a, b) => (b.resolvedAt ?? 0) - (a.resolvedAt ?? 0));
  return { active, resolved };
}

/** Active alert count per node, worst severity, for the cards. */
export function alertsByNode(active: readonly Alert[]): Map<string, { count: number; severity: Alert['severity'] }> {
  const out = new Map<string, { count: number; severity: Alert['severity'] }>();
  for (const a of active) {
    const had = out.get(a.address);
    out.set(a.address, {
      count: (had?.count ?? 0) + 1,
      severity: had?.severity === 'critical' || a.severity === 'critical' ? 'critical' : 'warning',
    });
  }
  return out;
}
