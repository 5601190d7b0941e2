import * as z from 'zod';
import { Restrictions } from './restrictions';
import { call } from '../define';
import { ProfileId } from './common';
import { Address } from './metrics';

/*
 * The Clients page: CLIENT LIST of every node of a profile, with the highlights an incident
 * starts from, and the few writes an operator needs (CLIENT KILL by ID, CLIENT PAUSE and
 * UNPAUSE). Reading is the analyst's; the writes are ops', confirmed (each input echoes what
 * it acts on), audited, and refused on the read-only embedded profile.
 *
 * Sections: inputs' pieces; one client; one node; the entries.
 */

// ---------------------------------------------------------------- inputs' pieces

/** The longest CLIENT PAUSE accepted: a pause is a stop for a failover or a deploy, not a state to leave a server in. */
export const MAX_PAUSE_MS = 60_000;
/** The default "long idle": an hour without a command. */
export const DEFAULT_IDLE_SECONDS = 3_600;
/** An output buffer this close to its class's limit (omem ÷ the lowest limit) is highlighted. */
export const NEAR_LIMIT_SHARE = 0.8;
/** A class with no limit: an output buffer this big is highlighted all the same. */
export const BIG_OMEM_BYTES = 32 * 1024 * 1024;

/** A client id as CLIENT LIST shows it: a 64-bit counter, kept as digits so none is rounded. */
export const ClientId = z
  .string({ error: 'id must be a client id (digits, as CLIENT LIST shows it)' })
  .regex(/^[1-9][0-9]{0,19}$/, 'id must be a client id (digits, as CLIENT LIST shows it)')
  .brand<'ClientId'>();
export type ClientId = z.output<typeof ClientId>;

const Confirm = z.string({ error: 'confirm is required' }).max(32, 'confirm must be at most 32 characters');

export const PauseMode = z.enum(['WRITE', 'ALL'], { error: 'mode must be WRITE or ALL' });
export type PauseMode = z.output<typeof PauseMode>;

// ---------------------------------------------------------------- one client

/** Why a row is highlighted; the page's legend says each in words. */
export const ClientMark = z.enum(['omem', 'idle', 'blocked', 'monitor', 'pubsub', 'ours']);
export type ClientMark = z.output<typeof ClientMark>;
export const CLIENT_MARKS = ClientMark.options;

/** The client-output-buffer-limit class a client's output buffer is held to (a master link counts as normal). */
export const ClientKind = z.enum(['normal', 'replica', 'pubsub', 'master']);
export type ClientKind = z.output<typeof ClientKind>;

/**
 * One line of CLIENT LIST, as the core reads it and the page shows it. Text fields are
 * untrusted (a client names itself): escaped like redis-cli (`\xHH`, `\\`), cut at 200
 * characters, and always rendered as text. On the wire a node's clients go as ClientColumns.
 */
export interface ClientRow {
  id: string;
  addr: string;
  name: string;
  user: string;
  db: number;
  /** The last command run (`client|list`), as Redis names it. */
  cmd: string;
  /** Seconds connected, and since its last command. */
  age: number;
  idle: number;
  flags: string;
  /** Channels, patterns and shard channels it is subscribed to. */
  subs: number;
  /** Memory, bytes: query buffer, arguments of the command running, queued MULTI, output buffer, all of it. */
  qbuf: number;
  argvMem: number;
  multiMem: number;
  omem: number;
  totMem: number;
  kind: ClientKind;
  /** omem ÷ the lowest limit (soft or hard) of its class, when the class has one and CONFIG GET answered. */
  limitShare?: number;
  /** lib-name and lib-ver (Redis 7.2+), when the client said them. */
  lib?: string;
  /** Bytes read from it and written to it, and commands it ran, since it connected: Valkey 8's tot-net-in, tot-net-out, tot-cmds, where the server reports them. */
  netIn?: number;
  netOut?: number;
  cmds?: number;
  marks: ClientMark[];
}

const texts = z.array(z.string());
const numbers = z.array(z.number());

/**
 * A node's clients, a column per field (client i is index i of every column): 10,000 clients
 * parse several times faster as a few long arrays than as 10,000 objects, and leave the page
 * far less to collect. `limitShare` is null where there is none, `lib` "" where none was said,
 * `netIn`, `netOut` and `cmds` null where the server does not report them (before Valkey 8),
 * `marks` a bit set (bit k: CLIENT_MARKS[k]). See app/clientColumns.ts.
 */
export const ClientColumns = z
  .object({
    id: texts,
    addr: texts,
    name: texts,
    user: texts,
    db: numbers,
    cmd: texts,
    age: numbers,
    idle: numbers,
    flags: texts,
    subs: numbers,
    qbuf: numbers,
    argvMem: numbers,
    multiMem: numbers,
    omem: numbers,
    totMem: numbers,
    kind: z.array(ClientKind),
    limitShare: z.array(z.number().nullable()),
    lib: texts,
    netIn: z.array(z.number().nullable()),
    netOut: z.array(z.number().nullable()),
    cmds: z.array(z.number().nullable()),
    marks: numbers,
  })
  .refine((c) => Object.values(c).every((col) => col.length === c.id.length), { message: 'every column holds one value per client' });
export type ClientColumns = z.output<typeof ClientColumns>;

// ---------------------------------------------------------------- one node

export const BufferLimit = z.object({ hardBytes: z.number(), softBytes: z.number(), softSeconds: z.number() });
export type BufferLimit = z.output<typeof BufferLimit>;
export const BufferLimits = z.object({ normal: BufferLimit, replica: BufferLimit, pubsub: BufferLimit });
export type BufferLimits = z.output<typeof BufferLimits>;

const Counted = z.object({ name: z.string(), count: z.number() });

export const MemoryByKind = z.object({ qbuf: z.number(), argvMem: z.number(), multiMem: z.number(), omem: z.number(), totMem: z.number() });
export type MemoryByKind = z.output<typeof MemoryByKind>;

/** What a node's clients add up to, over every client it listed (shown or not). */
export const NodeTotals = z.object({
  clients: z.number(),
  /** The most frequent names and users, most first (`""` is no name), at most 12 of each. */
  byName: z.array(Counted),
  byUser: z.array(Counted),
  memory: MemoryByKind,
  marks: z.record(ClientMark, z.number()),
});
export type NodeTotals = z.output<typeof NodeTotals>;

export const NodeClients = z.object({
  address: z.string(),
  role: z.string(),
  up: z.boolean(),
  /** Cluster replicas: their master's address. */
  master: z.string().optional(),
  /** CLIENT LIST failed on this node (unreachable, refused by ACL): no clients, and why. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** CLIENT LIST refused (a managed service, an ACL user without @admin): not an error, one line; the counts are unknown. */
  restrictions: Restrictions.optional(),
  /** CLIENT KILL or CLIENT PAUSE refused on a node whose clients are listed: that button is off, with its line. */
  writeRestrictions: Restrictions.optional(),
  /** client-output-buffer-limit, per class; absent when CONFIG GET was refused (see limitsNote). */
  limits: BufferLimits.optional(),
  /** Why there are no limits: the "near the limit" highlight is skipped on this node. */
  limitsNote: z.string().optional(),
  /** A CLIENT PAUSE sent through Cacheboard that has not run out yet. */
  paused: z.object({ mode: PauseMode, until: z.number() }).optional(),
  clients: ClientColumns,
  /** Clients listed but not sent (past the cap; the highlighted and biggest are kept). */
  notShown: z.number(),
  /** Lines of the reply that were not a client (no id or addr): skipped, counted. */
  unparsed: z.number(),
  totals: NodeTotals,
});
export type NodeClients = z.output<typeof NodeClients>;

export const ClientsList = z.object({
  at: z.number(),
  /** The thresholds the marks were given with, for the page's legend. */
  idleSeconds: z.number(),
  nearLimitShare: z.number(),
  bigOmemBytes: z.number(),
  nodes: z.array(NodeClients),
});
export type ClientsList = z.output<typeof ClientsList>;

// ---------------------------------------------------------------- the entries

const NodeTarget = {
  profileId: ProfileId,
  /** "host:port" of a node of the profile, as clients.list named it. */
  address: Address,
};

export const clients = {
  'clients.list': call({
    summary: 'CLIENT LIST of every node of the profile, with client-output-buffer-limit, highlights and totals per node',
    role: 'analyst',
    input: z
      .object({
        profileId: ProfileId,
        /** Idle at least this long is "long idle". */
        idleSeconds: z
          .number({ error: 'idleSeconds must be a number' })
          .int('idleSeconds must be a whole number')
          .min(1, 'idleSeconds must be at least 1')
          .max(30 * 86_400, 'idleSeconds must be at most 30 days (2,592,000)')
          .default(DEFAULT_IDLE_SECONDS),
      })
      .strict(),
    output: ClientsList,
  }),
  'clients.kill': call({
    summary: 'CLIENT KILL ID on one node (never by address alone); `confirm` repeats the id; a replication link also needs `breakReplication`; audited',
    role: 'ops',
    input: z
      .object({
        ...NodeTarget,
        id: ClientId,
        confirm: Confirm,
        /**
         * A replication link (CLIENT LIST flag S: a replica's; M: this replica's master's) is killed
         * only when the caller says it means to break replication: the page asks it of the user.
         */
        breakReplication: z.literal(true).optional(),
      })
      .strict()
      .refine((i) => i.confirm === i.id, { message: 'confirm must repeat the client id to kill', path: ['confirm'] }),
    output: z.object({
      /** False when no client had that id any more (it left, or was killed already). */
      killed: z.boolean(),
      /** The client as it was just before the kill: what the audit log names. */
      client: z.object({ id: z.string(), addr: z.string(), name: z.string() }).optional(),
    }),
  }),
  'clients.pause': call({
    summary: `CLIENT PAUSE WRITE or ALL on one node for at most ${MAX_PAUSE_MS} ms; \`confirm\` is the word PAUSE; audited`,
    role: 'ops',
    input: z
      .object({
        ...NodeTarget,
        mode: PauseMode,
        ms: z
          .number({ error: 'ms must be a number of milliseconds' })
          .int('ms must be a whole number of milliseconds')
          .min(1, 'ms must be at least 1')
          .max(MAX_PAUSE_MS, `ms must be ${MAX_PAUSE_MS.toLocaleString('en-US')} or less (one minute)`),
        confirm: Confirm,
      })
      .strict()
      .refine((i) => i.confirm === 'PAUSE', { message: 'confirm must be the word PAUSE', path: ['confirm'] }),
    output: z.object({ address: z.string(), mode: PauseMode, until: z.number() }),
  }),
  'clients.unpause': call({
    summary: 'CLIENT UNPAUSE on one node; `confirm` is the word UNPAUSE; audited',
    role: 'ops',
    input: z
      .object({ ...NodeTarget, confirm: Confirm })
      .strict()
      .refine((i) => i.confirm === 'UNPAUSE', { message: 'confirm must be the word UNPAUSE', path: ['confirm'] }),
    output: z.object({ address: z.string() }),
  }),
} as const;
