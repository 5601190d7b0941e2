import { AppError } from '../../../app/errors';
import { openRawConnection } from '../resp/rawConnection';
import { specAtAddress } from '../pool/pool';
import { currentMasterSpec } from '../pool/sentinels';
import { pageNodes, type NodeDiscovery } from '../pool/profileNodes';
import type { PoolApi, StoredProfile } from '../pool/types';
import { OWN_NAME_PREFIX, type MonitorTarget } from './monitorHub';

/**
 * How the hub reaches a node: the address is checked against the profile's
 * replication tree or the cluster's nodes (never an arbitrary host with the profile's password), the
 * MONITOR socket is a raw one named like every connection of ours, and CLIENT
 * LIST goes over the pool's monitoring connection to that node.
 */
export function monitorTargets(deps: {
  profile(id: string): StoredProfile | undefined;
  /** MetricsHub: the node an address names, checked against the profile's replication tree. */
  metrics: NodeDiscovery;
  pool: Pick<PoolApi, 'node' | 'nodes' | 'topology'>;
}): (profileId: string, address?: string) => Promise<MonitorTarget> {
  // A cluster: any master or replica CLUSTER NODES lists, each watched on its own socket.
  const nodes = pageNodes(deps.pool, deps.metrics, 'listed');
  return async (profileId, address) => {
    const profile = deps.profile(profileId);
    if (profile === undefined) throw new AppError('NOT_FOUND', `No connection profile with id "${profileId}"`, 'profileId');
    const node = await nodes.node(profileId, address);
    const own = `${profile.spec.host}:${profile.spec.port}`;
    // A sentinel profile's own address is its first sentinel, which the pool's monitoring
    // connection reaches the master through: MONITOR goes to that master, named afresh.
    const spec = profile.spec.topology?.kind === 'sentinel' && node === own ? await currentMasterSpec(profile.spec) : specAtAddress(profile.spec, node);
    return {
      address: node,
      open: () => openRawConnection(spec, spec.db, { name: `${OWN_NAME_PREFIX}monitor:${profileId}` }),
      clientList: async () => String(await (await deps.pool.node(profileId, node)).client('LIST')),
    };
  };
}
