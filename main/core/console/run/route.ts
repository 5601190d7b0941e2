import { formatHostPort } from '../../../../app/hostPort';
import { AppError } from '../../../../app/errors';
import type { ConsoleTarget } from '../../../../app/schemas/console';
import { specAtAddress } from '../../pool/nodeAddress';
import type { ProfileSpec, TopologyKind, TopologyNode } from '../../pool/types';
import { keySlot } from '../../resp/slot';
import { consoleNodes, servingMasters } from './consoleTopology';

/** One node a command goes to, and the profile's credentials aimed at it. */
export interface Hop {
  address: string;
  role: 'master' | 'replica';
  spec: ProfileSpec;
}

export interface RouteInput {
  kind: TopologyKind;
  /** The profile's spec as the session connects (an analyst's carries the analyst user). */
  spec: ProfileSpec;
  nodes: readonly TopologyNode[];
  target: ConsoleTarget;
  /** The command's keys (cluster, auto only): the first one's slot picks the master. */
  keys: () => Promise<Buffer[]>;
  /** The server's request_policy: a node-wide command that belongs on every master of a cluster. */
  everyShard: boolean;
  /** A sentinel set's master as the sentinels name it now ("host:port"): asked afresh for every run, never cached. */
  sentinelMaster: () => Promise<string>;
}

function hop(spec: ProfileSpec, n: { address: string; role: string }): Hop {
  return { address: n.address, role: n.role === 'master' ? 'master' : 'replica', spec: specAtAddress(spec, n.address) };
}

/**
 * Where a command runs. node: that node, if the profile's servers list it (a connection
 * carries the profile's password: never to an address typed in). masters: every master.
 * auto: a sentinel set's current master; a standalone profile's own server; on a cluster the
 * master serving the first key's slot (Redis answers CROSSSLOT if the others differ), every
 * master for a command the server marks all_shards/all_nodes, else the first master.
 */
export async function route(r: RouteInput): Promise<Hop[]> {
  const cluster = r.kind === 'cluster';
  const masters = servingMasters(r.nodes, cluster);
  if (r.target.kind === 'node') {
    const address = r.target.address;
    const node = consoleNodes(r.nodes).find((n) => n.address === address);
    if (node === undefined) {
      throw new AppError('VALIDATION', `${address} is not a node of this profile (as its servers list them now): pick one from the targets`, 'target.address');
    }
    return [hop(r.spec, node)];
  }
  if (r.kind === 'sentinel') {
    // A failover moves the master: a write sent where it was would be lost when that node rejoins as a replica.
    return [hop(r.spec, { address: await r.sentinelMaster(), role: 'master' })];
  }
  if (r.target.kind === 'masters' || (cluster && r.everyShard)) {
    if (masters.length === 0) throw new AppError('UNREACHABLE', 'No master of this profile answers now');
    return masters.map((m) => hop(r.spec, m));
  }
  if (r.kind === 'standalone') {
    const own = formatHostPort(r.spec);
    return [hop(r.spec, { address: own, role: r.nodes.find((n) => n.address === own)?.role ?? 'master' })];
  }
  const first = masters[0];
  if (first === undefined) throw new AppError('UNREACHABLE', 'No master of this cluster serves slots now');
  const [key] = await r.keys();
  if (key === undefined) return [hop(r.spec, first)];
  const slot = keySlot(key);
  const serving = masters.find((m) => (m.slots ?? []).some(([a, b]) => slot >= a && slot <= b));
  // No master serves the slot (a resharding, a failed shard): any master answers MOVED or CLUSTERDOWN.
  return [hop(r.spec, serving ?? first)];
}
