import type { NodeSample } from '../../../app/schemas/metrics';

/** Maps an address as some node reported it to the address the node is listed under. */
export type Canonical = (address: string) => string;

/**
 * Tie the samples of one tick together:
 * - replica links and master addresses are rewritten to the addresses the nodes
 *   are listed under (a master may report a replica by IP that the profile names
 *   by host), so the UI can join links to nodes;
 * - a master's slaveN offset is what the replica last acknowledged (REPLCONF ACK
 *   goes out about once a second), so under steady writes it trails by up to a
 *   second of traffic even on a healthy link. When the replica answered this
 *   tick with its own, larger slave_repl_offset, that one is used for offset and
 *   lagBytes.
 * Returns new samples; the input is not changed.
 */
export function joinReplicaLinks(samples: NodeSample[], canonical: Canonical): NodeSample[] {
  const byAddress = new Map(samples.map((s) => [s.address, s]));
  return samples.map((s) => {
    const repl = s.replication;
    if (!s.up || repl === undefined) return s;
    const masterAddress = repl.masterAddress === undefined ? undefined : canonical(repl.masterAddress);
    const replicas = repl.replicas.map((link) => {
      const address = canonical(link.address);
      const own = byAddress.get(address)?.replication;
      const fresher =
        own?.replicaOffset !== undefined && own.masterAddress !== undefined && canonical(own.masterAddress) === s.address
          ? Math.max(link.offset, own.replicaOffset)
          : link.offset;
      return { ...link, address, offset: fresher, lagBytes: Math.max(0, repl.masterReplOffset - fresher) };
    });
    return {
      ...s,
      replication: { ...repl, ...(masterAddress === undefined ? {} : { masterAddress }), replicas },
    };
  });
}
