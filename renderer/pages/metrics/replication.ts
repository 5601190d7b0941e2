import type { NodeSample } from '../../../app/schemas/metrics';
import { isReplicaRole } from '../../lib/nodes';

/** The alert thresholds the page asks the server for; the graph colours a link by the same ones. */
export const LAG_BYTES_THRESHOLD = 1024 * 1024;
export const LAG_SECONDS_THRESHOLD = 10;

export type LinkState = 'up' | 'sync' | 'lagging' | 'down' | 'unknown';

export interface LinkView {
  state: LinkState;
  /** From the master's `slaveN:` line; absent when the master does not list the replica. */
  lagBytes?: number;
  lagSeconds?: number;
  /** INFO master_link_down_since_seconds on the replica. */
  downSeconds?: number;
  /** The master's word for the link (online, wait_bgsave, send_bulk...). */
  detail?: string;
}

/**
 * How the link from `master` to `replica` is doing, from both ends: the replica's
 * master_link_status and the master's list of replicas. Either end down is a down link.
 */
export function linkOf(replica: NodeSample | undefined, master: NodeSample | undefined): LinkView {
  const row = master?.up ? master.replication?.replicas.find((r) => r.address === replica?.address) : undefined;
  const lag = row === undefined ? {} : { lagBytes: row.lagBytes, lagSeconds: row.lagSeconds, detail: row.state };
  if (replica === undefined) return { state: 'unknown', ...lag };
  const status = replica.replication?.masterLinkStatus;
  const downSince = replica.replication?.masterLinkDownSinceSeconds;
  if (!replica.up || master?.up === false || status === 'down') {
    return { state: 'down', ...lag, ...(downSince === undefined ? {} : { downSeconds: downSince }) };
  }
  if (row !== undefined && row.state !== 'online') return { state: 'sync', ...lag };
  if (row !== undefined && (row.lagBytes > LAG_BYTES_THRESHOLD || row.lagSeconds > LAG_SECONDS_THRESHOLD)) {
    return { state: 'lagging', ...lag };
  }
  if (status === 'up' || row !== undefined) return { state: 'up', ...lag };
  return { state: 'unknown', ...lag };
}

/**
 * The master sample of a replica: by the address the topology gives, else the node
 * whose replica list names it (a replica may know its master by another name).
 */
export function masterOf(replicaAddress: string, masterAddress: string | undefined, samples: readonly NodeSample[]): NodeSample | undefined {
  const named = masterAddress === undefined ? undefined : samples.find((s) => s.address === masterAddress);
  return named ?? samples.find((s) => s.replication?.replicas.some((r) => r.address === replicaAddress) === true);
}

/** The link of a node to its master, or undefined for a node that replicates from nobody. */
export function replicaLink(address: string, masterAddress: string | undefined, samples: readonly NodeSample[]): LinkView | undefined {
  const sample = samples.find((s) => s.address === address);
  const master = masterOf(address, masterAddress, samples);
  if (masterAddress === undefined && master === undefined) return undefined;
  if (sample?.up === true && !isReplicaRole(sample.role ?? sample.replication?.role)) return undefined;
  return linkOf(sample, master);
}
