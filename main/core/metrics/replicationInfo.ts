import type { InfoSections } from '../info/parseInfo';
import { infoNumber } from '../info/infoSnapshot';
import { replicaLinksOf, type RawReplicaLink } from '../info/replicaLinks';
import { nodeAddress } from './address';

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
