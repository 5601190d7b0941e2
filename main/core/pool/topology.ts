import { AppError } from '../../../app/errors';
import { formatHostPort, type NodeAddress } from '../../../app/hostPort';
import type { TopologyView } from '../../../app/schemas/connections';
import type { ProfileSpec } from './types';

export type TopologyKind = 'standalone' | 'cluster' | 'sentinel';

export function topologyKind(spec: ProfileSpec): TopologyKind {
  return spec.topology?.kind ?? 'standalone';
}

/**
 * The profile's credentials, DB and TLS aimed straight at one node, with no
 * topology: what a connection to one known node (a cluster master, the master
 * a sentinel named, a replica) is made from.
 */
export function plainSpecAt(spec: ProfileSpec, node: NodeAddress): ProfileSpec {
  const { topology: _topology, ...plain } = spec;
  return { ...plain, host: node.host, port: node.port };
}

/** The topology as it leaves the Node side: addresses as text, no sentinel password. */
export function viewTopology(spec: ProfileSpec, sentinelPasswordStored = false): TopologyView | undefined {
  const t = spec.topology;
  if (t === undefined) return undefined;
  if (t.kind === 'cluster') return { kind: 'cluster', seeds: t.seeds.map(formatHostPort) };
  return {
    kind: 'sentinel',
    sentinels: t.sentinels.map(formatHostPort),
    masterName: t.masterName,
    ...(t.sentinelUsername === undefined ? {} : { sentinelUsername: t.sentinelUsername }),
    hasSentinelPassword: t.sentinelPassword !== undefined || sentinelPasswordStored,
  };
}

/** Every address a profile may connect to first, as text, in order. */
export function entryPoints(spec: ProfileSpec): string[] {
  const t = spec.topology;
  if (t === undefined) return [formatHostPort(spec)];
  return (t.kind === 'cluster' ? t.seeds : t.sentinels).map(formatHostPort);
}

/**
 * Whether two specs point at the same servers: same topology, same addresses
 * and master name. A stored password may only follow a draft that still points
 * where the saved profile did.
 */
export function sameEndpoints(a: ProfileSpec, b: ProfileSpec): boolean {
  if (topologyKind(a) !== topologyKind(b)) return false;
  const masterA = a.topology?.kind === 'sentinel' ? a.topology.masterName : '';
  const masterB = b.topology?.kind === 'sentinel' ? b.topology.masterName : '';
  return masterA === masterB && entryPoints(a).join(',') === entryPoints(b).join(',');
}

/**
 * Refuse a job that would otherwise open one socket to the seed node of a
 * cluster profile and act on that node alone (a bulk load would meet MOVED for
 * two keys in three, a sample would see a third of the keyspace).
 */
export function refuseCluster(spec: ProfileSpec, job = 'This job'): void {
  if (spec.topology?.kind !== 'cluster') return;
  throw new AppError(
    'UNSUPPORTED',
    `${job} on a Redis Cluster arrives with issue 10 (Cluster and Sentinel in every job); ` +
      `"${spec.name}" is a cluster profile. For now, add a standalone profile for one master ` +
      `(${formatHostPort(spec)} or another) to run it there.`,
  );
}

/** For cluster() and dedicatedCluster(). */
export function requireClusterProfile(spec: ProfileSpec): void {
  if (spec.topology?.kind === 'cluster') return;
  throw new AppError('UNSUPPORTED', `"${spec.name}" is not a Redis Cluster profile.`);
}
