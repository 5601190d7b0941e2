import { AppError } from '../../../app/errors';
import { formatHostPort, type NodeAddress } from '../../../app/hostPort';
import type { TopologyView } from '../../../app/schemas/connections';
import type { MasterNode, ProfileSpec, TopologyKind } from './types';

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
 * Whether a stored secret may follow an edit from `a` to `b`: the same servers
 * (sameEndpoints), reached the same way (TLS on or off, the same CA, name and
 * verification). TLS counts because turning it off, or verification off, hands
 * the password to whoever sits on the path, as surely as a new host would.
 */
export function sameDestination(a: ProfileSpec, b: ProfileSpec): boolean {
  const tls = (s: ProfileSpec) => [s.tls.enabled, s.tls.caFile ?? '', s.tls.servername ?? '', s.tls.rejectUnauthorized].join('\u0000');
  return sameEndpoints(a, b) && tls(a) === tls(b) && sshWay(a) === sshWay(b) && samePins(a, b);
}

/** A host key pinned for the first time keeps secrets; a pin that changed is another server. */
function samePins(a: ProfileSpec, b: ProfileSpec): boolean {
  const before = a.ssh?.pinned ?? {};
  const after = b.ssh?.pinned ?? {};
  return Object.entries(before).every(([at, fp]) => after[at] === undefined || after[at] === fp);
}

/**
 * Which SSH servers a profile goes through, checked the same way: a new bastion, or host keys
 * taken from elsewhere, could read the Redis password (and the SSH secrets) off the tunnel.
 */
function sshWay(s: ProfileSpec): string {
  const ssh = s.ssh;
  if (ssh === undefined) return '';
  const hop = (h: { host?: string | undefined; port?: number | undefined; user?: string | undefined }) => `${h.user ?? ''}@${h.host ?? ''}:${h.port ?? 22}`;
  return [...(ssh.jumps ?? []).map(hop), hop(ssh), ssh.configHost ?? '', ssh.configFile ?? '', ssh.knownHostsFile ?? ''].join('\u0000');
}

/**
 * Refuse to open one connection to the seed node of a cluster profile and act
 * on that node alone (a bulk load would meet MOVED for two keys in three, a
 * sample would see a third of the keyspace). The jobs resolve a cluster to its
 * masters or to one named node first; this guards the paths that did not.
 */
export function refuseCluster(spec: ProfileSpec, job = 'This job'): void {
  if (spec.topology?.kind !== 'cluster') return;
  throw new AppError(
    'UNSUPPORTED',
    `${job} talks to one server, and "${spec.name}" is a Redis Cluster, whose seed ` +
      `${formatHostPort(spec)} holds only its own slots' keys. Name one node (its host:port) ` +
      `or a master, or add a standalone profile for it.`,
  );
}

/** SELECT of any DB but 0 is refused in cluster mode. */
export function requireDbZero(db: number, field = 'db'): void {
  if (db !== 0) throw new AppError('VALIDATION', `${field} must be 0 on a Redis Cluster (SELECT is refused in cluster mode), not ${db}`, field);
}

/** The master serving `slot`, from a cluster's masters with their slot ranges. */
export function masterServing(masters: readonly MasterNode[], slot: number): MasterNode | undefined {
  return masters.find((m) => (m.slots ?? []).some(([from, to]) => slot >= from && slot <= to));
}

/** For cluster() and dedicatedCluster(). */
export function requireClusterProfile(spec: ProfileSpec): void {
  if (spec.topology?.kind === 'cluster') return;
  throw new AppError('UNSUPPORTED', `"${spec.name}" is not a Redis Cluster profile.`);
}
