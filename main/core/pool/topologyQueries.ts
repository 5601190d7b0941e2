import type { Cluster, Redis } from 'ioredis';
import { formatHostPort, parseHostPort } from '../../../app/hostPort';
import { parseInfo, parseInfoPairs } from '../info/parseInfo';
import { unlessRefused } from '../redis/refusal';
import { parseClusterNodes } from './clusterNodes';
import { currentMasterSpec, sentinelNodes } from './sentinels';
import { plainSpecAt } from './topology';
import type { MasterNode, ProfileSpec, TopologyNode } from './types';

/** The pooled clients the queries run on: a cluster's monitoring Cluster, a server's monitoring connection. */
export interface QueryClients {
  cluster(): Promise<Cluster>;
  monitoring(): Promise<Redis>;
}

/**
 * CLUSTER NODES through the Cluster client (ioredis sends a keyless command to
 * one master): every node, as that node's view of the cluster has it.
 */
async function clusterNodes(clients: QueryClients): Promise<TopologyNode[]> {
  const cluster = await clients.cluster();
  return parseClusterNodes(String(await cluster.call('CLUSTER', 'NODES')));
}

/** A server and what its INFO replication names: its replicas, or its master. */
async function standaloneNodes(spec: ProfileSpec, clients: QueryClients): Promise<TopologyNode[]> {
  const redis = await clients.monitoring();
  const self = formatHostPort(spec);
  const text = await unlessRefused(redis.info('replication'), ['INFO'], () => undefined);
  // INFO refused (an ACL user without @dangerous): the server alone, taken as the master; were it
  // a replica, its first write says READONLY. The pages that need its figures name INFO.
  if (text === undefined) return [{ address: self, role: 'master', flags: [], healthy: true }];
  const repl = parseInfo(text)['replication'] ?? {};
  if (repl['role'] === 'slave') {
    const master = formatHostPort({ host: repl['master_host'] ?? '', port: Number(repl['master_port']) });
    const up = repl['master_link_status'] === 'up';
    return [
      { address: self, role: 'replica', master, flags: up ? [] : ['master_link_down'], healthy: true },
      { address: master, role: 'master', flags: [], healthy: up },
    ];
  }
  const replicas = Object.entries(repl)
    .filter(([k]) => /^slave\d+$/.test(k))
    .map(([, v]): TopologyNode => {
      const r = parseInfoPairs(v);
      return {
        address: formatHostPort({ host: r['ip'] ?? '', port: Number(r['port']) }),
        role: 'replica',
        master: self,
        flags: r['state'] === 'online' ? [] : [r['state'] ?? 'unknown'],
        healthy: r['state'] === 'online',
      };
    });
  return [{ address: self, role: 'master', flags: [], healthy: true }, ...replicas];
}

export function nodesOf(spec: ProfileSpec, clients: QueryClients): Promise<TopologyNode[]> {
  switch (spec.topology?.kind) {
    case 'cluster':
      return clusterNodes(clients);
    case 'sentinel':
      return sentinelNodes(spec);
    default:
      return standaloneNodes(spec, clients);
  }
}

/**
 * The masters a job acts on, as plain specs. A cluster's masters that serve
 * slots and are not flagged failing (after a failover the old master shows
 * `master,fail` with no slots until it rejoins as a replica).
 */
export async function mastersOf(spec: ProfileSpec, clients: QueryClients): Promise<MasterNode[]> {
  if (spec.topology?.kind === 'cluster') {
    const nodes = await clusterNodes(clients);
    return nodes
      .filter((n) => n.role === 'master' && n.healthy && (n.slots?.length ?? 0) > 0)
      .flatMap((n) => {
        const at = parseHostPort(n.address, spec.port);
        return 'error' in at ? [] : [{ address: n.address, spec: plainSpecAt(spec, at), slots: n.slots ?? [] }];
      });
  }
  const master = await currentMasterSpec(spec);
  return [{ address: formatHostPort(master), spec: plainSpecAt(master, master) }];
}
