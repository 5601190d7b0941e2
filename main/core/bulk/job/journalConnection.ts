import type { Redis } from 'ioredis';
import { formatHostPort } from '../../../../app/hostPort';
import { topologyKind } from '../../pool/topology';
import type { PoolApi, StoredProfile } from '../../pool/types';

/**
 * The connection restorePendingSaves needs for a journaled host:port. A
 * journal names the server the load wrote to: for a standalone profile its own
 * address, but for a sentinel or cluster profile a master the pool found
 * (never the address the profile holds), so those profiles are matched by
 * asking the pool for their masters now.
 */
export async function journalConnection(
  profiles: readonly StoredProfile[],
  pool: Pick<PoolApi, 'dedicated' | 'masters'>,
  host: string,
  port: number,
): Promise<{ redis: Redis; release(): Promise<void> }> {
  const standalone = profiles.find((p) => topologyKind(p.spec) === 'standalone' && p.spec.host === host && p.spec.port === port);
  if (standalone !== undefined) return pool.dedicated(standalone.id, { purpose: 'bulk' });
  const address = formatHostPort({ host, port });
  for (const p of profiles) {
    if (topologyKind(p.spec) === 'standalone') continue;
    // An unreachable cluster or sentinel set cannot be the server either, for now: try the next profile.
    const masters = await pool.masters(p.id).catch(() => []);
    if (masters.some((m) => m.address === address)) return pool.dedicated(p.id, { purpose: 'bulk', address });
  }
  throw new Error(`no connection profile for ${address} (neither a standalone profile nor a master of a cluster or sentinel profile)`);
}
