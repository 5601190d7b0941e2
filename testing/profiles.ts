import { parseHostPort } from '../app/hostPort';
import type { ProfileSpec, StoredProfile } from '../main/core/pool/types';

/** A connection spec for a local test server; fields can be overridden. */
export function specFor(target: { host?: string; port: number }, over: Partial<ProfileSpec> = {}): ProfileSpec {
  return {
    name: `test ${target.port}`,
    host: target.host ?? '127.0.0.1',
    port: target.port,
    db: 0,
    tls: { enabled: false, rejectUnauthorized: true },
    ...over,
  };
}

/** An in-memory profile registry to hand to a Pool: `new Pool({ ...registry })`. */
export function profileRegistry(profiles: Record<string, ProfileSpec>): {
  resolve(id: string): StoredProfile | undefined;
  list(): StoredProfile[];
} {
  const all = (): StoredProfile[] => Object.entries(profiles).map(([id, spec]) => ({ id, source: 'user', spec }));
  return {
    resolve: (id) => all().find((p) => p.id === id),
    list: all,
  };
}

function hostPort(address: string): { host: string; port: number } {
  const at = parseHostPort(address, 26379);
  if ('error' in at) throw new Error(at.error);
  return at;
}

/** A cluster profile's spec seeded with the first of a test cluster's node addresses. */
export function clusterSpec(addresses: readonly string[], over: Partial<ProfileSpec> = {}): ProfileSpec {
  const seed = hostPort(addresses[0] ?? '');
  return specFor(seed, { name: 'shards', topology: { kind: 'cluster', seeds: [seed] }, ...over });
}

/** A sentinel profile's spec for a test sentinel set: every sentinel, its master name. */
export function sentinelSpec(set: { sentinelAddresses: readonly string[]; masterName: string }, over: Partial<ProfileSpec> = {}): ProfileSpec {
  const sentinels = set.sentinelAddresses.map(hostPort);
  return specFor(sentinels[0] ?? { host: '127.0.0.1', port: 1 }, {
    name: 'ha',
    topology: { kind: 'sentinel', sentinels, masterName: set.masterName },
    ...over,
  });
}
