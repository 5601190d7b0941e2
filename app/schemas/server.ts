import * as z from 'zod';
import { call } from '../define';
import { Db, ProfileId } from './common';

export const KeyspaceEntry = z.object({
  db: z.number(),
  keys: z.number(),
  expires: z.number(),
  avgTtl: z.number(),
  /** Keys whose hash fields expire (Redis 7.4+ `subexpiry`); absent where the server does not report it. */
  subexpiry: z.number().optional(),
});

/** One parsed INFO snapshot; the essentials typed, every section kept raw for the curious. */
export const InfoSnapshot = z.object({
  at: z.number(),
  server: z.object({
    /** server_name (Valkey), or 'redis' where the server names none. */
    name: z.string(),
    /** The server's own version: valkey_version over redis_version. */
    version: z.string(),
    /** redis_version: the Redis version the server is compatible with (Valkey says 7.2.4); what version checks compare. */
    redisVersion: z.string(),
    /** server_mode over redis_mode. */
    mode: z.string(),
    os: z.string(),
    uptimeSeconds: z.number(),
    tcpPort: z.number(),
  }),
  role: z.string(),
  clients: z.object({ connected: z.number(), blocked: z.number() }),
  memory: z.object({
    used: z.number(),
    usedHuman: z.string(),
    peak: z.number(),
    rss: z.number(),
    maxmemory: z.number(),
    fragmentation: z.number(),
  }),
  stats: z.object({
    opsPerSec: z.number(),
    totalCommands: z.number(),
    keyspaceHits: z.number(),
    keyspaceMisses: z.number(),
    inputKbps: z.number(),
    outputKbps: z.number(),
  }),
  keyspace: z.array(KeyspaceEntry),
  sections: z.record(z.string(), z.record(z.string(), z.string())),
});
export type InfoSnapshot = z.output<typeof InfoSnapshot>;

export const server = {
  'server.info': call({
    summary: 'One INFO snapshot of the profile, parsed',
    role: 'analyst',
    input: z.object({ profileId: ProfileId, db: Db.optional() }).strict(),
    output: InfoSnapshot,
  }),
} as const;
