import { parseInfoPairs, type InfoSections } from '../info/parseInfo';
import { infoNumber } from '../info/infoSnapshot';
import { nodeAddress } from './address';

/** One slaveN line of a master's INFO replication. */
export interface RawReplicaLink {
  address: string;
  state: string;
  /** The offset the replica last acknowledged (REPLCONF ACK, about once a second). */
  offset: number;
  /** Seconds since that acknowledgement. */
  lag: number;
}

export interface ReplicationFacts {
  role: string;
  masterAddress?: string;
  masterLinkStatus?: string;
  masterLinkDownSinceSeconds?: number;
  masterReplOffset: number;
  replicaOffset?: number;
  replicas: RawReplicaLink[];
}

/** INFO says "slave" (every version to date); the UI and our JSON say "replica". */
export function normaliseRole(role: string | undefined): string {
  if (role === undefined || role === '') return 'unknown';
  return role === 'slave' ? 'replica' : role;
}

/**
 * slaveN lines, in N order. A replica lists its own sub-replicas the same way
 * (chained replication), so this works on any node.
 */
export function replicaLinksOf(sections: InfoSections): RawReplicaLink[] {
  const repl = sections['replication'] ?? {};
  const out: RawReplicaLink[] = [];
  for (const [field, value] of Object.entries(repl)) {
    if (!/^slave\d+$/.test(field)) continue;
    const p = parseInfoPairs(value);
    if (p['ip'] === undefined || p['port'] === undefined) continue;
    out.push({
      address: nodeAddress(p['ip'], p['port']),
      state: p['state'] ?? 'unknown',
      offset: infoNumber(p['offset']),
      lag: infoNumber(p['lag']),
    });
  }
  return out;
}

export function replicationOf(sections: InfoSections): ReplicationFacts {
  const repl = sections['replication'] ?? {};
  const role = normaliseRole(repl['role']);
  const facts: ReplicationFacts = {
    role,
    masterReplOffset: infoNumber(repl['master_repl_offset']),
    replicas: replicaLinksOf(sections),
  };
  if (role === 'replica') {
    if (repl['master_host'] !== undefined && repl['master_port'] !== undefined) {
      facts.masterAddress = nodeAddress(repl['master_host'], repl['master_port']);
    }
    if (repl['master_link_status'] !== undefined) facts.masterLinkStatus = repl['master_link_status'];
    // Present only while the link is down; -1 means it never came up since the replica started.
    const downSince = repl['master_link_down_since_seconds'];
    if (downSince !== undefined && infoNumber(downSince) >= 0) {
      facts.masterLinkDownSinceSeconds = infoNumber(downSince);
    }
    if (repl['slave_repl_offset'] !== undefined) facts.replicaOffset = infoNumber(repl['slave_repl_offset']);
  }
  return facts;
}
