import type { Catalog } from '../../../../app/schemas/console';
import type { PoolApi } from '../../pool/types';
import { loadCatalog } from '../catalog/loadCatalog';
import type { GetKeysClient } from './consoleKeys';

/** A catalog serves runs this long; then the server is asked again (a module loaded, an upgrade). */
export const CATALOG_TTL_MS = 5 * 60_000;

/** The pool's ioredis client for a connection id: the Cluster client on a cluster, the shared connection (the current master) otherwise. */
export type PoolClient = GetKeysClient & { call(command: string, ...args: string[]): Promise<unknown> };

export function poolClient(pool: Pick<PoolApi, 'topology' | 'cluster' | 'shared'>, connectionId: string): Promise<PoolClient> {
  return pool.topology(connectionId) === 'cluster' ? pool.cluster(connectionId) : pool.shared(connectionId);
}

/**
 * Each connection id's command catalog (an analyst's is read as the analyst Redis user, which
 * COMMAND DOCS may answer differently), loaded once and kept CATALOG_TTL_MS. A failed load is not kept.
 */
export class CatalogCache {
  private readonly entries = new Map<string, { at: number; catalog: Promise<Catalog> }>();

  constructor(
    private readonly pool: Pick<PoolApi, 'topology' | 'cluster' | 'shared'>,
    private readonly ttlMs = CATALOG_TTL_MS,
  ) {}

  get(connectionId: string): Promise<Catalog> {
    const now = Date.now();
    for (const [id, e] of this.entries) if (now - e.at >= this.ttlMs) this.entries.delete(id);
    const hit = this.entries.get(connectionId);
    if (hit !== undefined) return hit.catalog;
    const catalog = poolClient(this.pool, connectionId).then((client) => loadCatalog((args) => client.call(args[0] ?? '', ...args.slice(1))));
    this.entries.set(connectionId, { at: now, catalog });
    catalog.catch(() => {
      if (this.entries.get(connectionId)?.catalog === catalog) this.entries.delete(connectionId);
    });
    return catalog;
  }
}
