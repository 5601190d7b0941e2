import * as z from 'zod';
import { parseHostPort, type NodeAddress } from '../hostPort';

/** A node address as typed, "host:port" or "[v6]:port"; a bare host gets `defaultPort`. */
function Address(defaultPort: number) {
  return z
    .string()
    .max(300)
    .transform((raw, ctx): NodeAddress => {
      const a = parseHostPort(raw, defaultPort);
      if ('error' in a) {
        ctx.addIssue({ code: 'custom', message: a.error });
        return z.NEVER;
      }
      return a;
    });
}

const Standalone = z.object({ kind: z.literal('standalone') }).strict();

const ClusterDraft = z
  .object({
    kind: z.literal('cluster'),
    /**
     * Seed nodes besides host:port (or the URL's): any one that answers gives the
     * whole slot map; more keep the profile working while one is down.
     */
    seeds: z.array(Address(6379)).max(64, 'at most 64 seed nodes').optional(),
  })
  .strict();

const SentinelDraft = z
  .object({
    kind: z.literal('sentinel'),
    /**
     * Sentinel addresses (port 26379 when left out). host:port or the URL's, when
     * given, is the first sentinel (as in redis+sentinel:// URLs); one is needed in all.
     */
    sentinels: z.array(Address(26379)).max(16, 'at most 16 sentinels').optional(),
    /** The name the sentinels monitor the master under (`sentinel monitor <name> …`). */
    masterName: z
      .string()
      .trim()
      .min(1, 'masterName is required: the name the sentinels monitor the master under')
      .max(256, 'masterName is too long')
      .regex(/^[!-~]+$/, 'masterName may hold only printable characters without spaces'),
    /** ACL user and password of the sentinels themselves, when they require one. */
    sentinelUsername: z.string().min(1).max(256).optional(),
    sentinelPassword: z.string().min(1, 'sentinelPassword must not be empty').max(4096).optional(),
  })
  .strict();

/** What a user picks: standalone (the default), cluster or sentinel, with what each needs. */
export const TopologyDraft = z.discriminatedUnion('kind', [Standalone, ClusterDraft, SentinelDraft]);
export type TopologyDraft = z.input<typeof TopologyDraft>;

/** A profile's topology as the Node side holds it; a standalone profile has none. */
export type Topology =
  | { kind: 'cluster'; seeds: NodeAddress[] }
  | {
      kind: 'sentinel';
      sentinels: NodeAddress[];
      masterName: string;
      sentinelUsername?: string;
      sentinelPassword?: string;
    };

/** What leaves the Node side: addresses as "host:port", whether a sentinel password is set. */
export const TopologyView = z.discriminatedUnion('kind', [
  Standalone,
  z.object({ kind: z.literal('cluster'), seeds: z.array(z.string()) }),
  z.object({
    kind: z.literal('sentinel'),
    sentinels: z.array(z.string()),
    masterName: z.string(),
    sentinelUsername: z.string().optional(),
    hasSentinelPassword: z.boolean(),
  }),
]);
export type TopologyView = z.output<typeof TopologyView>;
