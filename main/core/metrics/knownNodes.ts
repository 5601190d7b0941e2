import type { Discovery, FetchInfo } from './discovery';
import { replicationOf } from './replicationInfo';
import { mergeTopology } from './topologyMerge';
import type { TopologyEntry } from './types';

/**
 * The nodes a discovery found, plus every node of the profile known before
 * that it no longer reaches, each asked again for INFO. A discovery walks the
 * replication tree from the profile's own server: with that master down it
 * finds the master alone, while its replicas still run and answer. Asked
 * directly, a carried-over node tells its own state and role; one that does
 * not answer stays listed, down, with the role and master last known.
 */
export async function withKnownNodes(
  found: Discovery,
  known: ReadonlyMap<string, TopologyEntry>,
  fetch: FetchInfo,
  maxNodes: number,
): Promise<TopologyEntry[]> {
  const merged = mergeTopology(found.nodes, known, found.aliases, maxNodes);
  const reached = new Set(found.nodes.map((n) => n.address));
  return Promise.all(
    merged.map(async (n) => {
      if (reached.has(n.address)) return n;
      try {
        const repl = replicationOf(await fetch(n.address));
        const entry: TopologyEntry = { ...n, up: true, role: repl.role };
        delete entry.master;
        if (repl.masterAddress !== undefined) entry.master = repl.masterAddress;
        return entry;
      } catch {
        return n;
      }
    }),
  );
}

/**
 * Per profile, the nodes its last discoveries listed: what withKnownNodes
 * carries over. Forgotten when the profile's own server changes (an edited
 * profile), so a node is only ever reached because this profile's servers
 * once reported it, never an arbitrary address. Bounded by the node limit of
 * each discovery.
 */
export class KnownNodes {
  private readonly byProfile = new Map<string, { root: string; nodes: Map<string, TopologyEntry> }>();

  /** What is remembered of a profile whose own server is `root`. */
  get(connectionId: string, root: string): Map<string, TopologyEntry> {
    const known = this.byProfile.get(connectionId);
    return known === undefined || known.root !== root ? new Map() : new Map(known.nodes);
  }

  set(connectionId: string, root: string, nodes: readonly TopologyEntry[]): void {
    this.byProfile.set(connectionId, { root, nodes: new Map(nodes.map((n) => [n.address, { ...n }])) });
  }

  has(connectionId: string, root: string, address: string): boolean {
    const known = this.byProfile.get(connectionId);
    return known !== undefined && known.root === root && known.nodes.has(address);
  }
}
