import * as z from 'zod';
import { call } from '../define';
import { ProfileId } from './common';

/*
 * The Config domain: CONFIG GET * of every node of a profile, grouped, with the differences
 * between nodes that matter; CONFIG SET on one node or every node; CONFIG REWRITE where the
 * server has a config file. Secrets (requirepass, masterauth, masteruser, TLS key passphrases,
 * any parameter named for a pass, auth or secret) never leave the server: only whether one is set.
 */

/** The sections the page shows, in order (main/core/config/paramGroups.ts says which parameter goes where). */
export const CONFIG_GROUPS = ['memory', 'persistence', 'replication', 'security', 'clients', 'cluster', 'others'] as const;
export const ConfigGroup = z.enum(CONFIG_GROUPS);
export type ConfigGroup = z.output<typeof ConfigGroup>;

/** Longest value CONFIG SET is sent (a `save` schedule or a buffer limit is a few dozen characters). */
export const MAX_CONFIG_VALUE = 4096;

/** "host:port" of a node of the profile, as its servers list it. */
const NodeAddress = z.string().min(3).max(300);

/** A parameter's name as CONFIG takes it: no glob, so one name reads and sets one parameter. */
export const ConfigParamName = z
  .string({ error: 'name must be a string' })
  .min(1, 'name is required')
  .max(128, 'name must be at most 128 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'name must be a config parameter name: letters, digits, - and _ (e.g. maxmemory)');

/**
 * How far a difference matters. `matters`: a known risk (a replica's maxmemory or save unlike its
 * master's). `drift`: unlike, with no known consequence. `expected`: each node has its own by design
 * (port, paths, announced addresses, replicaof).
 */
export const DiffKind = z.enum(['matters', 'drift', 'expected']);
export type DiffKind = z.output<typeof DiffKind>;

export const ConfigCell = z.object({
  /** CONFIG GET's value; absent for a secret, for a node not read, or one without the parameter. */
  value: z.string().optional(),
  /** Secrets only: whether a value is set (non-empty). The value itself is never sent. */
  secretSet: z.boolean().optional(),
  /** Unlike the node it is compared with: that node, how far it matters, and why, in words. */
  diff: z.object({ against: NodeAddress, kind: DiffKind, reason: z.string() }).optional(),
});
export type ConfigCell = z.output<typeof ConfigCell>;

export const ConfigParam = z.object({
  name: z.string(),
  /** Old names Redis lists too (slave-priority for replica-priority): folded into this row. */
  aliases: z.array(z.string()).optional(),
  group: ConfigGroup,
  secret: z.boolean(),
  /** One per node, in `nodes` order. */
  cells: z.array(ConfigCell),
  /** The most that any of its cells' differences matters. */
  differs: DiffKind.optional(),
});
export type ConfigParam = z.output<typeof ConfigParam>;

export const NodeReadState = z.enum(['ok', 'refused', 'down', 'error']);

export const ConfigNode = z.object({
  address: NodeAddress,
  role: z.string(),
  /** Replicas: the node they replicate from. */
  master: NodeAddress.optional(),
  /** ok: read; refused: CONFIG refused here (said once, in `refusal`); down: not reachable; error: another failure. */
  state: NodeReadState,
  /** down and error: what happened, in words. */
  error: z.string().optional(),
  /** INFO server's config_file: '' when the server was started without one (nothing to rewrite). */
  configFile: z.string().optional(),
  /** The server's own version (valkey_version over redis_version) and name (server_name, 'redis' by default). */
  version: z.string().optional(),
  server: z.string().optional(),
});
export type ConfigNode = z.output<typeof ConfigNode>;

/** CONFIG refused by the server: renamed or disabled (managed services), or not allowed by ACL. */
export const ConfigRefusal = z.object({
  kind: z.enum(['renamed', 'acl']),
  /** How many of the nodes refused. */
  nodes: z.number(),
  /** What it means and what to do, in words. */
  message: z.string(),
  /** What Redis replied, as it said it. */
  reply: z.string(),
});
export type ConfigRefusal = z.output<typeof ConfigRefusal>;

export const ConfigView = z.object({
  topology: z.enum(['standalone', 'cluster', 'sentinel']),
  nodes: z.array(ConfigNode),
  params: z.array(ConfigParam),
  refusal: ConfigRefusal.optional(),
  /** More nodes than one read covers: these were not read. */
  nodesLeftOut: z.number().optional(),
  readAt: z.number(),
});
export type ConfigView = z.output<typeof ConfigView>;

/** One node, or every node of the profile (each read afresh, each answering for itself). */
const Scope = z.discriminatedUnion(
  'scope',
  [z.object({ scope: z.literal('node'), address: NodeAddress }).strict(), z.object({ scope: z.literal('every') }).strict()],
  { error: 'scope must be "node" (with an address) or "every"' },
);

const ConfigSetInput = z
  .object({
    profileId: ProfileId,
    name: ConfigParamName,
    value: z.string({ error: 'value must be a string' }).max(MAX_CONFIG_VALUE, `value must be at most ${MAX_CONFIG_VALUE} characters`),
    target: Scope,
  })
  .strict();

const NodeError = z.object({ code: z.string(), message: z.string() });

export const ConfigSetResult = z.object({
  address: NodeAddress,
  ok: z.boolean(),
  /** The value before and after (CONFIG GET on each side of the SET); absent for a secret. */
  before: z.string().optional(),
  after: z.string().optional(),
  /** Redis's refusal (its validation message), or why the node could not be reached. */
  error: NodeError.optional(),
});
export type ConfigSetResult = z.output<typeof ConfigSetResult>;

export const ConfigRewriteResult = z.object({
  address: NodeAddress,
  ok: z.boolean(),
  configFile: z.string().optional(),
  /** What went wrong, explained (no config file, the file or its folder not writable…). */
  error: NodeError.optional(),
});
export type ConfigRewriteResult = z.output<typeof ConfigRewriteResult>;

export const config = {
  'config.get': call({
    summary: 'CONFIG GET * of every node of a profile, grouped, with the differences between nodes; secrets masked',
    role: 'analyst',
    input: z.object({ profileId: ProfileId }).strict(),
    output: ConfigView,
  }),
  'config.set': call({
    summary: 'CONFIG SET one parameter on one node or every node; each node answers for itself; audited with the old and new values (secrets masked)',
    role: 'ops',
    input: ConfigSetInput,
    output: z.object({ name: z.string(), secret: z.boolean(), results: z.array(ConfigSetResult) }),
  }),
  'config.rewrite': call({
    summary: 'CONFIG REWRITE on one node or every node that has a config file; a failure explained; audited',
    role: 'ops',
    input: z.object({ profileId: ProfileId, target: Scope }).strict(),
    output: z.object({ results: z.array(ConfigRewriteResult) }),
  }),
} as const;
