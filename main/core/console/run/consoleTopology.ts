import type { CallOutput } from '../../../../app/contract';
import type { ConsoleNode } from '../../../../app/schemas/console';
import { byAddress, inShardOrder } from '../../pool/shardOrder';
import { topologyKind } from '../../pool/topology';
import type { PoolApi, ProfileSpec, TopologyNode } from '../../pool/types';

/** How long a profile's node list serves runs before it is asked again (a sentinel set's master is asked every run: route.ts). */
const TTL_MS = 5_000;

/**
 * Each connection id's nodes as its servers list them (CLUSTER NODES, the sentinels, INFO
 * replication), kept a few seconds so a run does not ask again for every line. forget() after
 * a MOVED, ASK or a broken connection, so the next run asks afresh.
 */
export class ConsoleTopology {
  private readonly cache = new Map<string, { at: number; nodes: Promise<TopologyNode[]> }>();

  constructor(private readonly pool: Pick<PoolApi, 'nodes'>) {}

  nodes(connectionId: string): Promise<TopologyNode[]> {
    const now = Date.now();
    const hit = this.cache.get(connectionId);
    if (hit !== undefined && now - hit.at < TTL_MS) return hit.nodes;
    const nodes = this.pool.nodes(connectionId);
    this.cache.set(connectionId, { at: now, nodes });
    nodes.catch(() => this.forget(connectionId));
    return nodes;
  }

  forget(connectionId: string): void {
    this.cache.delete(connectionId);
  }

  /** console.targets: the profile's topology and the nodes a command can be sent to (consoleNodes). */
  async targets(connectionId: string, spec: ProfileSpec): Promise<CallOutput<'console.targets'>> {
    return { topology: topologyKind(spec), nodes: consoleNodes(await this.nodes(connectionId)) };
  }
}

/** "0-5460,10923": a master's slot ranges as CLUSTER SHARDS would say them. */
export function slotText(ranges: ReadonlyArray<[number, number]>): string {
  return ranges.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(',');
}

/**
 * The nodes a command can be sent to: each master (with its slots on a cluster) followed by its
 * replicas, sentinels and address-less nodes left out; a replica whose master is not listed comes last.
 */
export function consoleNodes(all: readonly TopologyNode[]): ConsoleNode[] {
  const data = all.filter((n) => n.role !== 'sentinel' && n.address !== '' && !n.address.startsWith(':'));
  return inShardOrder(data).map((n) => {
    const role = n.role === 'master' ? 'master' : 'replica';
    return {
      address: n.address,
      role,
      ...(n.master === undefined || role === 'master' ? {} : { master: n.master }),
      ...(n.slots === undefined || n.slots.length === 0 ? {} : { slots: slotText(n.slots) }),
    };
  });
}

/**
 * The masters a command for "every master" goes to: a cluster's that serve slots. One that is
 * down still serves its slots until a replica takes them over: it is asked, and its "Not
 * answered" stands beside the others' replies rather than it silently dropping out of "every".
 */
export function servingMasters(all: readonly TopologyNode[], cluster: boolean): TopologyNode[] {
  return all.filter((n) => n.role === 'master' && n.address !== '' && (!cluster || (n.slots?.length ?? 0) > 0)).sort(byAddress);
}
