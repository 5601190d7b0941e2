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
