import * as z from 'zod';
import { call, stream } from '../define';
import { Db, ProfileId } from './common';

/** Longest key glob a filter accepts: matching costs up to pattern × key length steps. */
export const MAX_KEY_GLOB_LENGTH = 256;

/** "host:port" of a node of the profile's replication tree. */
const NodeAddress = z.string().min(3).max(300);

export const MonitorFilter = z
  .object({
    /** Command names to keep (case-insensitive); all when absent. */
    commands: z
      .array(z.string().regex(/^[A-Za-z][A-Za-z_|-]{0,39}$/, 'a command name holds only letters, _, | and -'))
      .max(50, 'at most 50 command names')
      .optional(),
    /** Redis-style glob over the key (the first argument of keyed commands). */
    keyGlob: z
      .string()
      .min(1, 'key pattern must not be empty')
      .max(MAX_KEY_GLOB_LENGTH, `key pattern must be at most ${MAX_KEY_GLOB_LENGTH} characters`)
      .optional(),
    /** Keep lines whose client address contains this text. */
    client: z.string().min(1).max(128, 'client must be at most 128 characters').optional(),
    db: Db.optional(),
    /** Keep one matching line in N. */
    sampleEvery: z
      .number({ error: 'sampleEvery must be a number' })
      .int('sampleEvery must be a whole number')
      .min(1, 'sampleEvery must be at least 1')
      .max(10_000, 'sampleEvery must be 10,000 or less')
      .default(1),
    /** Hide Cacheboard's own traffic (INFO polls and the like). */
    hideOwn: z.boolean().default(true),
  })
  .strict();
export type MonitorFilter = z.output<typeof MonitorFilter>;

export const MonitorLine = z.object({
  /** Server time in ms since the epoch (microsecond fraction). */
  ts: z.number(),
  db: z.number(),
  client: z.string(),
  command: z.string(),
  /** As the server escaped them (`\"`, `\n`, `\xff`): printable ASCII, shown as text. Each cut at 1 KB. */
  args: z.array(z.string()),
  /** Arguments beyond the 64 kept. */
  moreArgs: z.number(),
  truncated: z.boolean(),
});
export type MonitorLine = z.output<typeof MonitorLine>;

const Counted = z.object({ name: z.string(), count: z.number() });

export const MonitorState = z.enum(['connecting', 'live', 'reconnecting', 'stopped']);

export const MonitorEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('lines'),
    lines: z.array(MonitorLine),
    /**
     * Since this viewer joined, read at one moment so that every batch adds up:
     * received = unparsed + filteredOut + matched, and matched = delivered + dropped.
     * received: every line the node sent; unparsed: lines that did not parse;
     * filteredOut: parsed lines the filter (or its 1 in N) left out; matched: lines it kept;
     * delivered: those sent; dropped: those dropped because the viewer lagged.
     */
    received: z.number(),
    unparsed: z.number(),
    filteredOut: z.number(),
    matched: z.number(),
    delivered: z.number(),
    dropped: z.number(),
  }),
  /** About once a second: what the node is doing since MONITOR opened, all lines counted (before any filter). */
  z.object({
    kind: z.literal('stats'),
    at: z.number(),
    address: z.string(),
    linesPerSec: z.number(),
    received: z.number(),
    unparsed: z.number(),
    topCommands: z.array(Counted),
    topKeys: z.array(Counted),
    /** Redis-side output buffer of the MONITOR client, bytes; absent when CLIENT LIST is denied. */
    omem: z.number().optional(),
  }),
  z.object({ kind: z.literal('state'), state: MonitorState, message: z.string().optional() }),
  /** The node was away: no lines between `from` (the last line seen) and `to` (back). */
  z.object({ kind: z.literal('gap'), from: z.number(), to: z.number(), reason: z.string() }),
  /** The session limit ended the stream. */
  z.object({ kind: z.literal('ended'), message: z.string() }),
]);
export type MonitorEvent = z.output<typeof MonitorEvent>;

export const monitor = {
  'monitor.nodes': call({
    summary: 'The nodes MONITOR can watch: the profile’s node and its replication tree, or every node of a cluster, shard by shard',
    role: 'ops',
    input: z.object({ profileId: ProfileId }).strict(),
    output: z.object({
      nodes: z.array(
        z.object({
          address: z.string(),
          role: z.string(),
          up: z.boolean(),
          /** Cluster replicas: their master's address (a master and its replicas are one shard, listed together). */
          master: z.string().optional(),
        }),
      ),
    }),
  }),
  'monitor.watch': stream({
    summary: 'MONITOR of one node, filtered on the server, in batches (at most 20 a second) with exact drop counts',
    role: 'ops',
    input: z
      .object({
        profileId: ProfileId,
        /** The profile's own node when absent. */
        address: NodeAddress.optional(),
        filter: MonitorFilter.default({ sampleEvery: 1, hideOwn: true }),
      })
      .strict(),
    event: MonitorEvent,
  }),
} as const;
