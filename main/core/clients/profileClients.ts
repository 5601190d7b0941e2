import { OWN_NAME_PREFIX, ownClients } from '../monitor';
import { pageNodes, type NodeDiscovery } from '../pool/profileNodes';
import type { PoolApi } from '../pool/types';
import { ClientsService } from './clientsService';

/**
 * The Clients page's service: a profile's nodes as the Monitor finds them (a cluster as CLUSTER
 * NODES lists it, else the Overview's discovery), and Cacheboard's own connections as MONITOR
 * names them, so the page reads the same nodes the Monitor watches.
 */
export function profileClients(pool: Pick<PoolApi, 'node' | 'nodes' | 'topology'>, discovery: NodeDiscovery): ClientsService {
  const nodes = pageNodes(pool, discovery, 'listed');
  return new ClientsService({
    pool,
    nodes: (id) => nodes.nodes(id),
    nodeOf: (id, address) => nodes.node(id, address),
    own: (list) => ownClients(list, OWN_NAME_PREFIX, undefined).own,
  });
}
