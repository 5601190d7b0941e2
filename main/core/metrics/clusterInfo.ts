import type { ClusterFacts } from '../../../app/schemas/metrics';

/** Slots in a Redis Cluster: every one must be assigned and ok for cluster_state:ok. */
export const CLUSTER_SLOTS = 16384;

/** CLUSTER INFO is "field:value" lines, like INFO without sections. */
export function parseClusterInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) out[line.slice(0, colon)] = line.slice(colon + 1).trim();
  }
  return out;
}

function factsOf(address: string, f: Record<string, string>): ClusterFacts {
  const n = (k: string): number => Number(f[k] ?? 0) || 0;
  return {
    state: f['cluster_state'] ?? 'unknown',
    slotsAssigned: n('cluster_slots_assigned'),
    slotsOk: n('cluster_slots_ok'),
    slotsPfail: n('cluster_slots_pfail'),
    slotsFail: n('cluster_slots_fail'),
    knownNodes: n('cluster_known_nodes'),
    size: n('cluster_size'),
    reportedBy: address,
  };
}

/** How bad a view is: a failing state first, then fewer slots served ok. */
function badness(c: ClusterFacts): number {
  return (c.state === 'ok' ? 0 : CLUSTER_SLOTS * 2) + (CLUSTER_SLOTS - c.slotsOk) + c.slotsPfail;
}

/**
 * The cluster's state as the worst view any reachable node reports. Each node
 * judges cluster_state from its own gossip: right after a failover, or while a
 * node is partitioned, views differ, and the one saying "fail" is the one an
 * operator needs to see. Undefined when no node answered CLUSTER INFO.
 */
export function worstView(views: ReadonlyMap<string, Record<string, string>>): ClusterFacts | undefined {
  let worst: ClusterFacts | undefined;
  for (const [address, fields] of views) {
    const facts = factsOf(address, fields);
    if (worst === undefined || badness(facts) > badness(worst)) worst = facts;
  }
  return worst;
}

/** Slots not served: unassigned, or assigned to a master flagged failing. */
export function uncoveredSlots(c: ClusterFacts): number {
  return CLUSTER_SLOTS - c.slotsAssigned + c.slotsFail;
}
