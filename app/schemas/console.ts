import * as z from 'zod';
import { call, stream } from '../define';
import { Db, ProfileId } from './common';
import { DownloadEvent } from './keys';

/*
 * The Console domain: any command in redis-cli syntax, against the server it names, with that
 * server's own COMMAND DOCS / COMMAND INFO as help and guard, replies typed by RESP3 and
 * bounded for the page (the whole reply stays downloadable).
 *
 * Sections: limits; replies; the command catalog; targets; running; history and downloads.
 */

// ---------------------------------------------------------------- limits

/** Longest command line the console sends (bytes of typed text): values go in, but not files. */
export const MAX_LINE_CHARS = 1_048_576;
/** A reply is shown up to this many bytes of data… */
export const REPLY_DISPLAY_BYTES = 2 * 1024 * 1024;
/** …and this many elements (every string, number and aggregate counts one); the rest is in the download. */
export const REPLY_DISPLAY_ELEMENTS = 20_000;
/** One string of a reply is shown up to this many bytes (longer: cut, and the reply is downloadable). */
export const REPLY_STRING_BYTES = 64 * 1024;
/** History lines kept per user and profile (oldest dropped first). */
export const HISTORY_LINES = 500;
/** Longest a blocking command may wait (BLPOP 0 waits this long at most, then is cancelled). */
export const MAX_BLOCK_MS = 10 * 60_000;

// ---------------------------------------------------------------- replies

/**
 * One reply, by its RESP type. Strings carry redis-cli style escaped text (`\xff`, `\n`, `"`
 * as `\"`), never HTML. Aggregates hold at most what the display bound let through: `total`
 * is the real count, so `total > items.length` says the rest was cut.
 */
export type ReplyNode =
  | { t: 'simple'; v: string }
  | { t: 'error'; v: string }
  /** 64-bit integers as text: a JS number cannot hold them all. */
  | { t: 'integer'; v: string }
  /** `bytes` is the string's real length; `cut` when only the first REPLY_STRING_BYTES are in `v`. */
  | { t: 'bulk'; v: string; bytes: number; cut?: boolean }
  | { t: 'double'; v: string }
  | { t: 'bignum'; v: string }
  | { t: 'boolean'; v: boolean }
  | { t: 'null' }
  /** RESP3 verbatim string: `format` is its 3-letter kind (txt, mkd). */
  | { t: 'verbatim'; format: string; v: string; bytes: number; cut?: boolean }
  | { t: 'array' | 'set' | 'push'; items: ReplyNode[]; total: number }
  /** Maps and attributes: key and value pairs. */
  | { t: 'map' | 'attribute'; entries: [ReplyNode, ReplyNode][]; total: number };

export const ReplyNode: z.ZodType<ReplyNode> = z.lazy(() =>
  z.discriminatedUnion('t', [
    z.object({ t: z.literal('simple'), v: z.string() }),
    z.object({ t: z.literal('error'), v: z.string() }),
    z.object({ t: z.literal('integer'), v: z.string() }),
    z.object({ t: z.literal('bulk'), v: z.string(), bytes: z.number(), cut: z.boolean().optional() }),
    z.object({ t: z.literal('double'), v: z.string() }),
    z.object({ t: z.literal('bignum'), v: z.string() }),
    z.object({ t: z.literal('boolean'), v: z.boolean() }),
    z.object({ t: z.literal('null') }),
    z.object({ t: z.literal('verbatim'), format: z.string(), v: z.string(), bytes: z.number(), cut: z.boolean().optional() }),
    z.object({ t: z.enum(['array', 'set', 'push']), items: z.array(ReplyNode), total: z.number() }),
    z.object({ t: z.enum(['map', 'attribute']), entries: z.array(z.tuple([ReplyNode, ReplyNode])), total: z.number() }),
  ]),
) as z.ZodType<ReplyNode>;

/** A reply past the display bound: what was shown, what the whole was, and where to get it. */
export const ReplyCut = z.object({
  /** Bytes and elements of the whole reply. */
  totalBytes: z.number(),
  totalElements: z.number(),
  /** The whole reply as text (formatted or raw, as the run asked), for `console.download`. */
  downloadId: z.string(),
  fileBytes: z.number(),
});
export type ReplyCut = z.output<typeof ReplyCut>;

// ---------------------------------------------------------------- the command catalog

/** One argument of a command's syntax, from COMMAND DOCS. */
export interface ArgDoc {
  name: string;
  /** key, string, integer, double, pattern, unix-time, pure-token, oneof, block. */
  type: string;
  /** The literal word typed before it (EX, NX, WITHSCORES…). */
  token?: string;
  optional?: boolean;
  multiple?: boolean;
  /** oneof and block: their parts. */
  args?: ArgDoc[];
}
export const ArgDoc: z.ZodType<ArgDoc> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.string(),
    token: z.string().optional(),
    optional: z.boolean().optional(),
    multiple: z.boolean().optional(),
    args: z.array(ArgDoc).optional(),
  }),
) as z.ZodType<ArgDoc>;

/** One command or subcommand as the server describes it. */
export interface CommandDoc {
  /** Upper case; a subcommand is "CONFIG SET". */
  name: string;
  /** COMMAND DOCS (absent when the server gave names only). */
  summary?: string;
  since?: string;
  group?: string;
  complexity?: string;
  /** The syntax in one line, from the arguments: `key [EX seconds | PX milliseconds] [NX | XX]`. */
  syntax?: string;
  args?: ArgDoc[];
  /** COMMAND INFO: arity (negative: at least), flags, ACL categories (with @), tips. */
  arity?: number;
  /** COMMAND INFO's key positions: first and last key (last < 0 counts from the end), step. */
  firstKey?: number;
  lastKey?: number;
  keyStep?: number;
  flags?: string[];
  categories?: string[];
  tips?: string[];
  subcommands?: CommandDoc[];
}
export const CommandDoc: z.ZodType<CommandDoc> = z.lazy(() =>
  z.object({
    name: z.string(),
    summary: z.string().optional(),
    since: z.string().optional(),
    group: z.string().optional(),
    complexity: z.string().optional(),
    syntax: z.string().optional(),
    args: z.array(ArgDoc).optional(),
    arity: z.number().optional(),
    firstKey: z.number().optional(),
    lastKey: z.number().optional(),
    keyStep: z.number().optional(),
    flags: z.array(z.string()).optional(),
    categories: z.array(z.string()).optional(),
    tips: z.array(z.string()).optional(),
    subcommands: z.array(CommandDoc).optional(),
  }),
) as z.ZodType<CommandDoc>;

export const Catalog = z.object({
  /** docs: COMMAND DOCS and INFO; info: COMMAND INFO only; names: names only; none: the server refused all three. */
  source: z.enum(['docs', 'info', 'names', 'none']),
  /** The node's own version (valkey_version over redis_version), '' when INFO is refused. */
  version: z.string(),
  /** Its name (server_name, 'redis' where none is given); absent when INFO is refused. */
  server: z.string().optional(),
  commands: z.array(CommandDoc),
  /** Why the catalog is less than full, in words (ACL, an old server). */
  note: z.string().optional(),
});
export type Catalog = z.output<typeof Catalog>;

// ---------------------------------------------------------------- targets

export const ConsoleNode = z.object({
  address: z.string(),
  role: z.enum(['master', 'replica']),
  /** A replica's master. */
  master: z.string().optional(),
  /** A cluster master's slot ranges, "0-5460". */
  slots: z.string().optional(),
});
export type ConsoleNode = z.output<typeof ConsoleNode>;

/** "host:port" of one node of the profile. */
const NodeAddress = z.string().min(3).max(300);

/**
 * Where a command runs. auto: a keyed command on the master of its slot (cluster) or the
 * current master (sentinel); a node-wide one on the profile's node, or on every master when
 * the server's request_policy says all_shards / all_nodes. node: that one node. masters: every master.
 */
export const ConsoleTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('auto') }).strict(),
  z.object({ kind: z.literal('node'), address: NodeAddress }).strict(),
  z.object({ kind: z.literal('masters') }).strict(),
]);
export type ConsoleTarget = z.output<typeof ConsoleTarget>;

// ---------------------------------------------------------------- running

/** A page's console: its connections (SELECT, MULTI, CLIENT SETNAME persist) live under this id. */
const ConsoleId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'consoleId must be 8 to 64 letters, digits, _ or -');
/** The client's id for one run, so `console.cancel` can name it. */
const RunId = z.string().regex(/^[A-Za-z0-9_-]{4,64}$/, 'runId must be 4 to 64 letters, digits, _ or -');

export const NodeReply = z.object({
  address: z.string(),
  role: z.enum(['master', 'replica']),
  /** From the write to the last byte of the reply. */
  ms: z.number(),
  reply: ReplyNode,
  /** Present when the reply passed the display bound. */
  cut: ReplyCut.optional(),
  /** Words about an error reply (CROSSSLOT: which key hashes to which slot; NOPERM: which ACL user). */
  hint: z.string().optional(),
});
export type NodeReply = z.output<typeof NodeReply>;

export const RunResult = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('done'),
    /** The line as kept in the history: secrets replaced by `(redacted)`. */
    line: z.string(),
    /** Upper case, with its subcommand: "CONFIG GET". */
    command: z.string(),
    replies: z.array(NodeReply),
    /** The console's DB after the command (SELECT changes it). */
    db: z.number(),
    protocol: z.union([z.literal(2), z.literal(3)]),
    /**
     * Several nodes' integer replies to a command the server tips `response_policy:agg_sum`
     * (DBSIZE): their sum, the one number a cluster client answers. `nodes` of `of` replies were
     * integers (a node that did not answer is left out, and said so).
     */
    total: z.object({ value: z.string(), nodes: z.number(), of: z.number() }).optional(),
  }),
  /**
   * Not run: the guard holds it until the command is typed back. `confirmWith` is what to type
   * (the command name, "FLUSHALL" or "CONFIG SET"); `why` says, in words, what the server says
   * of it (@dangerous, writes every key, KEYS over a big DB) and what else to use.
   */
  z.object({
    status: z.literal('held'),
    line: z.string(),
    command: z.string(),
    reason: z.enum(['dangerous', 'writesAll', 'keys']),
    why: z.string(),
    confirmWith: z.string(),
  }),
]);
export type RunResult = z.output<typeof RunResult>;

export const commandConsole = {
  'console.catalog': call({
    summary: "The profile server's commands from its own COMMAND DOCS and COMMAND INFO (names only when those are refused)",
    role: 'analyst',
    input: z.object({ profileId: ProfileId }).strict(),
    output: Catalog,
  }),
  'console.targets': call({
    summary: 'The nodes a command can be sent to: the master, its replicas, every node of a cluster',
    role: 'analyst',
    input: z.object({ profileId: ProfileId }).strict(),
    output: z.object({ topology: z.enum(['standalone', 'sentinel', 'cluster']), nodes: z.array(ConsoleNode) }),
  }),
  'console.run': call({
    summary:
      'One command line in redis-cli syntax; analysts only @read commands; @dangerous ones held until typed back; non-@read runs audited (name and key, no values)',
    role: 'analyst',
    input: z
      .object({
        profileId: ProfileId,
        consoleId: ConsoleId,
        runId: RunId,
        /** The console's current DB (the profile's when absent). */
        db: Db.optional(),
        line: z.string().min(1, 'Type a command').max(MAX_LINE_CHARS, `A command line may be at most ${MAX_LINE_CHARS} characters`),
        target: ConsoleTarget.default({ kind: 'auto' }),
        protocol: z.union([z.literal(2), z.literal(3)]).default(3),
        /** Replies as `redis-cli --raw` prints them, in the download too. */
        raw: z.boolean().default(false),
        /** The typed-back confirmation of a held command: must equal its `confirmWith`. */
        confirm: z.string().max(100).optional(),
        /** A blocking command is cancelled after this long. */
        timeoutMs: z
          .number({ error: 'timeoutMs must be a number' })
          .int('timeoutMs must be a whole number')
          .min(100, 'timeoutMs must be at least 100')
          .max(MAX_BLOCK_MS, `timeoutMs must be ${MAX_BLOCK_MS} or less`)
          .default(60_000),
      })
      .strict(),
    output: RunResult,
  }),
  'console.cancel': call({
    summary: 'Cancel a running command (a blocking one: its dedicated connection is closed)',
    role: 'analyst',
    input: z.object({ consoleId: ConsoleId, runId: RunId }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  }),
  'console.history': call({
    summary: "The user's console history for a profile, newest last, secrets redacted",
    role: 'analyst',
    input: z.object({ profileId: ProfileId }).strict(),
    output: z.object({ lines: z.array(z.string()) }),
  }),
  'console.download': stream({
    summary: 'A reply that passed the display bound, as text, chunk by chunk',
    role: 'analyst',
    input: z.object({ downloadId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) }).strict(),
    event: DownloadEvent,
  }),
} as const;
