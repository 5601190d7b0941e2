import * as z from 'zod';
import { call, stream } from '../define';
import { ProfileId } from './common';

/*
 * The Pub/Sub domain: subscribe to channels, patterns and shard channels (analysts
 * too), publish (ops), and what every node's PUBSUB says. Channel names and payloads
 * are bytes: inputs carry them as base64, outputs as the escaped text people read
 * (cut, with the full length), and channel names again as base64, so a channel shown
 * can be subscribed to or published on whatever bytes it holds.
 */

/** Longest channel name the contract takes (bytes). Redis allows far more; nobody types one. */
export const MAX_CHANNEL_BYTES = 1024;
/** Longest pattern: Redis matches every published channel against every pattern, so patterns stay short. */
export const MAX_PATTERN_BYTES = 256;
/** Most channels, patterns or shard channels in one subscription (each list). */
export const MAX_NAMES = 100;
/** Largest payload the Publish box sends: a client message is at most 1 MiB, base64 adds a third. */
export const MAX_PUBLISH_BYTES = 512 * 1024;
/** Bytes of each payload (and channel name) a viewer is sent; the full length comes with it. */
export const KEEP_BYTES = 4096;
/** Most channels one overview lists per node (PUBSUB CHANNELS can name millions). */
export const MAX_OVERVIEW_CHANNELS = 500;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const b64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;
/** Bytes a well-formed base64 text stands for: its length alone cannot tell 256 from 257 (both 344 characters). */
const b64Bytes = (s: string) => (s.length / 4) * 3 - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);
const plural = (n: number) => n.toLocaleString('en-US');

/** Exact bytes as base64, between 1 and `max` bytes; `what` names the thing in messages. */
function bytesB64(what: string, max: number) {
  const tooLong = `${what} must be at most ${plural(max)} bytes`;
  return z
    .string({ error: `${what} must be base64 text` })
    .min(1, `${what} must not be empty`)
    .max(b64Length(max), tooLong)
    .regex(BASE64, `${what} must be base64`)
    .refine((s) => b64Bytes(s) <= max, tooLong);
}

export const ChannelB64 = bytesB64('a channel name', MAX_CHANNEL_BYTES);
export const PatternB64 = bytesB64('a pattern', MAX_PATTERN_BYTES);
/** A payload may be empty: PUBLISH news "" is a message. */
export const PayloadB64 = z
  .string({ error: 'payload must be base64 text' })
  .max(b64Length(MAX_PUBLISH_BYTES), `payload must be at most ${plural(MAX_PUBLISH_BYTES)} bytes`)
  .regex(BASE64, 'payload must be base64')
  .refine((s) => b64Bytes(s) <= MAX_PUBLISH_BYTES, `payload must be at most ${plural(MAX_PUBLISH_BYTES)} bytes`);

function names<T extends z.ZodType>(item: T, what: string) {
  return z
    .array(item, { error: `${what} must be a list` })
    .max(MAX_NAMES, `at most ${MAX_NAMES} ${what} in one subscription`)
    .default([]);
}

export const SubscribeInput = z
  .object({
    profileId: ProfileId,
    channels: names(ChannelB64, 'channels'),
    /** Redis globs (PSUBSCRIBE). */
    patterns: names(PatternB64, 'patterns'),
    /** SSUBSCRIBE, each on the master that owns its slot (a cluster), or on the server itself. */
    shardChannels: names(ChannelB64, 'shard channels'),
  })
  .strict()
  .refine((s) => s.channels.length + s.patterns.length + s.shardChannels.length > 0, {
    message: 'name at least one channel, pattern or shard channel',
    path: ['channels'],
  });

/** Bytes as people read them: escaped like redis-cli, cut at KEEP_BYTES, with the full length. */
export const ShownBytes = z.object({
  text: z.string(),
  bytes: z.number(),
  truncated: z.boolean(),
});
export type ShownBytes = z.output<typeof ShownBytes>;

export const MessageKind = z.enum(['message', 'pmessage', 'smessage']);

export const PubSubMessage = z.object({
  /** When Cacheboard read it, ms since the epoch (Pub/Sub messages carry no time of their own). */
  at: z.number(),
  /** "host:port" of the node it came from. */
  node: z.string(),
  kind: MessageKind,
  channel: ShownBytes,
  /** The pattern that matched (pmessage). */
  pattern: ShownBytes.optional(),
  payload: ShownBytes,
});
export type PubSubMessage = z.output<typeof PubSubMessage>;

/** A node's link as one viewer sees it: `live` once everything it asked of the node is subscribed. */
export const NodeLinkState = z.enum(['connecting', 'subscribing', 'live', 'reconnecting', 'stopped']);
export type NodeLinkState = z.output<typeof NodeLinkState>;

const PlannedNode = z.object({
  address: z.string(),
  channels: z.array(ShownBytes),
  patterns: z.array(ShownBytes),
  shardChannels: z.array(z.object({ name: ShownBytes, slot: z.number() })),
});

export const PubSubEvent = z.discriminatedUnion('kind', [
  /** First, and again after a re-plan (a shard channel's slot moved, a master lost): which node each name is subscribed on (on a cluster, shard channels go to their slot's master). */
  z.object({ kind: z.literal('plan'), nodes: z.array(PlannedNode) }),
  z.object({
    kind: z.literal('messages'),
    messages: z.array(PubSubMessage),
    /** Since this viewer subscribed: messages its subscriptions matched, those it was sent, those dropped because it lagged. */
    received: z.number(),
    delivered: z.number(),
    dropped: z.number(),
  }),
  /** About once a second, whether messages came or not: the counters (received = delivered + dropped) at `at`. */
  z.object({ kind: z.literal('stats'), at: z.number(), received: z.number(), delivered: z.number(), dropped: z.number() }),
  z.object({ kind: z.literal('state'), address: z.string(), state: NodeLinkState, message: z.string().optional() }),
  /** The node was away: messages published between `from` and `to` were not received. */
  z.object({ kind: z.literal('gap'), address: z.string(), from: z.number(), to: z.number(), reason: z.string() }),
  /** Something the page should say once, e.g. a shard channel whose slot moved away. */
  z.object({ kind: z.literal('notice'), address: z.string(), message: z.string() }),
]);
export type PubSubEvent = z.output<typeof PubSubEvent>;

export const OverviewNode = z.object({
  address: z.string(),
  role: z.string(),
  up: z.boolean(),
  /** PUBSUB NUMPAT: pattern subscriptions on the node (the patterns themselves are not listed by Redis). */
  numpat: z.number().nullable(),
  /** Channels PUBSUB CHANNELS (and SHARDCHANNELS) named beyond the MAX_OVERVIEW_CHANNELS listed. */
  more: z.number(),
  /** Why the node could not be read. */
  error: z.string().optional(),
});

export const OverviewChannel = z.object({
  name: ShownBytes,
  b64: z.string(),
  shard: z.boolean(),
  /** NUMSUB (or SHARDNUMSUB) on each node, in the order of `nodes`; null where it could not be read. */
  perNode: z.array(z.number().nullable()),
  total: z.number(),
  /** Of the total, Cacheboard's own subscriber connections (this page's subscriptions). */
  ours: z.number(),
  /** Nobody but Cacheboard subscribes (pattern subscribers aside: Redis does not say which channels they match). */
  noSubscriber: z.boolean(),
  /** Asked about by the page rather than listed by a node. */
  asked: z.boolean(),
});

export const PubSubOverview = z.object({
  topology: z.enum(['standalone', 'cluster', 'sentinel']),
  at: z.number(),
  nodes: z.array(OverviewNode),
  channels: z.array(OverviewChannel),
});
export type PubSubOverview = z.output<typeof PubSubOverview>;

export const pubsub = {
  'pubsub.subscribe': stream({
    summary: 'Subscribe to channels, patterns and shard channels on a connection per node shared by every viewer, with exact received/delivered/dropped counts',
    role: 'analyst',
    input: SubscribeInput,
    event: PubSubEvent,
  }),
  'pubsub.overview': call({
    summary: 'PUBSUB CHANNELS, NUMSUB and NUMPAT (and SHARDCHANNELS, SHARDNUMSUB) of every node, channels with no subscriber flagged',
    role: 'analyst',
    input: z
      .object({
        profileId: ProfileId,
        /** Channels to count even when no node lists them (no subscriber anywhere). */
        check: z
          .array(z.object({ channel: ChannelB64, shard: z.boolean().default(false) }).strict(), { error: 'check must be a list' })
          .max(MAX_NAMES, `check at most ${MAX_NAMES} channels at once`)
          .default([]),
      })
      .strict(),
    output: PubSubOverview,
  }),
  'pubsub.publish': call({
    summary: 'PUBLISH (or SPUBLISH on the channel’s shard) one message, returning the receiver count Redis gives; audited',
    role: 'ops',
    input: z
      .object({
        profileId: ProfileId,
        channel: ChannelB64,
        payload: PayloadB64,
        shard: z.boolean({ error: 'shard must be true or false' }).default(false),
      })
      .strict(),
    output: z.object({
      command: z.enum(['PUBLISH', 'SPUBLISH']),
      /** "host:port" of the node that took it. */
      node: z.string(),
      slot: z.number().optional(),
      /** As Redis returns it: on a cluster, the receivers connected to `node` only. */
      receivers: z.number(),
      /** A cluster counts only the node it reached. */
      countedOn: z.enum(['server', 'node']),
    }),
  }),
} as const;
