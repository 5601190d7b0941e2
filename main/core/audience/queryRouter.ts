import type { AudienceQueryResult } from '../../../app/schemas/audience';
import type { PoolApi, ProfileSpec } from '../pool/types';
import { audienceServer, ServerCache, topologyChanged } from './audienceServer';
import { queryAudience, type AudienceQuery } from './queryAudience';
import type { AudienceQueryLinks } from './queryLinks';

/** Cluster servers kept for audience.query (one per profile, hash tag and DB in use). */
const MAX_KEPT_SERVERS = 64;

/**
 * Where each audience.query runs, and over which kept connection. A cluster's layout
 * lives on the master serving its hash tag; that master is looked up once and kept,
 * since asking CLUSTER NODES each time would add a round trip to an answer meant to
 * take a few ms. A query that finds the slot moved or its master failed over looks
 * it up again, once.
 */
export class AudienceQueryRouter {
  private readonly clusterServers = new ServerCache(MAX_KEPT_SERVERS);

  constructor(
    private readonly pool: Pick<PoolApi, 'masters'>,
    private readonly links: Pick<AudienceQueryLinks, 'use'>,
  ) {}

  async query(connectionId: string, spec: ProfileSpec, db: number, query: AudienceQuery): Promise<AudienceQueryResult> {
    const run = (server: ProfileSpec) => this.links.use(connectionId, server, db, (t) => queryAudience(t, query));
    // A kept connection finds a sentinel's master when it connects; a cluster's node depends on the hash tag.
    if (spec.topology?.kind !== 'cluster') return run(spec);
    const resolve = () => audienceServer(this.pool, connectionId, spec, query.layout, db);
    const key = JSON.stringify([connectionId, spec.topology, query.layout.hashTag, db]);
    const cached = this.clusterServers.get(key);
    const server = cached ?? (await resolve());
    this.clusterServers.remember(key, server);
    try {
      return await run(server);
    } catch (e) {
      // The slot moved or its master failed over since it was looked up: look again, once.
      if (cached === undefined || !topologyChanged(e)) throw e;
      // A MOVED reply names the new owner: go there, as cluster clients do. The pool's own view
      // of the masters can lag a failover by a refresh, and would hand back the stale master.
      const fresh = movedTo(e, server) ?? (await resolve());
      this.clusterServers.remember(key, fresh);
      return run(fresh);
    }
  }
}

/** The server a MOVED error names (`MOVED 14293 10.0.0.7:7002`), with the old one's credentials and TLS; else undefined. */
function movedTo(e: unknown, from: ProfileSpec): ProfileSpec | undefined {
  const m = /\bMOVED \d+ (\S+):(\d+)\b/.exec(e instanceof Error ? e.message : '');
  if (m === null) return undefined;
  return { ...from, host: (m[1] as string).replace(/^\[(.*)\]$/, '$1'), port: Number(m[2]) };
}
