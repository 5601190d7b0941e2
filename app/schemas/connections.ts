import * as z from 'zod';
import { call, stream } from '../define';
import { Db, Empty, Host, Port, ProfileId } from './common';
import { parseRedisUrl } from '../redisUrl';
import { formatHostPort, type NodeAddress } from '../hostPort';
import { TopologyDraft, TopologyView, type Topology } from './topology';
import { SshDraft, SshHostKey, SshView, type SshSpec } from './sshProfile';

export { TopologyDraft, TopologyView, type Topology } from './topology';
export type { NodeAddress } from '../hostPort';
export { SshDraft, SshView, type SshSpec } from './sshProfile';

export const TlsOptions = z
  .object({
    enabled: z.boolean().default(false),
    /** PEM bundle on the Node side's filesystem; it must exist. */
    caFile: z.string().min(1, 'tls.caFile must not be empty').max(4096).optional(),
    /** SNI / certificate name to verify, when it differs from host. */
    servername: z.string().min(1).max(253).optional(),
    /** Certificate verification is on unless the user turns it off explicitly. */
    rejectUnauthorized: z.boolean().default(true),
  })
  .strict();
export type TlsOptions = z.output<typeof TlsOptions>;

const Name = z.string().trim().min(1, 'name is required').max(100, 'name is too long');
const Username = z.string().min(1).max(256);
const Password = z.string().min(1, 'password must not be empty').max(4096);

/** A tag, or a folder path such as "prod/eu": printable, no commas (the form's tag field splits on them). */
export const ProfileTag = z
  .string()
  .trim()
  .min(1, 'a tag must not be empty')
  .max(40, 'a tag is at most 40 characters')
  .regex(/^[^,\p{Cc}]+$/u, 'a tag may not hold commas or control characters');
export const ProfileTags = z.array(ProfileTag).max(16, 'at most 16 tags');

/** Tags once each, in code-unit order (the same on every machine), so a list compares equal however it was typed. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()))].sort();
}

/**
 * How analysts reach a profile: `shared`, with the profile's own Redis user (and so all its
 * rights); `user`, as a Redis user of their own (its ACL decides what they may do; an absent
 * password on an edit keeps the stored one, as for the profile's password); `none`, not at all.
 */
export const AnalystAccessDraft = z.discriminatedUnion('access', [
  z.object({ access: z.literal('shared') }).strict(),
  z.object({ access: z.literal('user'), username: z.string().min(1, "the analysts' user name is required").max(256), password: Password.optional() }).strict(),
  z.object({ access: z.literal('none') }).strict(),
]);
export type AnalystAccessDraft = z.output<typeof AnalystAccessDraft>;

/** What a profile view says of analysts' access: `own` is a Redis user of their own. */
export const AnalystAccess = z.enum(['own', 'shared', 'none']);
export type AnalystAccess = z.output<typeof AnalystAccess>;

/**
 * What a user types: either discrete fields or a `redis://` / `rediss://` URL.
 * Normalised into a ProfileSpec; URL errors are reported on the `url` field.
 */
export const ProfileDraft = z
  .object({
    name: Name,
    url: z.string().trim().max(8192).optional(),
    host: Host.optional(),
    port: Port.optional(),
    db: Db.optional(),
    username: Username.optional(),
    password: Password.optional(),
    tls: TlsOptions.optional(),
    /** Absent or standalone: one server. Cluster and sentinel add where to find the nodes. */
    topology: TopologyDraft.optional(),
    /** Absent: on add, analysts share the profile's user; on update, what was stored stays. */
    analyst: AnalystAccessDraft.optional(),
    /** Through SSH: every address above is then as seen from the last SSH server. */
    ssh: SshDraft.optional(),
    /** Tags or folder paths the Connections page groups and filters by; absent on update: the stored ones stay. */
    tags: ProfileTags.optional(),
  })
  .strict()
  .transform((d, ctx) => {
    let fromUrl: ReturnType<typeof parseRedisUrl> | undefined;
    if (d.url !== undefined && d.url !== '') {
      fromUrl = parseRedisUrl(d.url);
      if ('error' in fromUrl) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: fromUrl.error });
        return z.NEVER;
      }
    }
    const u = fromUrl && !('error' in fromUrl) ? fromUrl : undefined;
    const topology = d.topology?.kind === 'standalone' ? undefined : d.topology;
    const typedHost = d.host ?? u?.host;
    // Typed or from the URL, host:port is the first seed or sentinel of a cluster or sentinel profile.
    const typed: NodeAddress | undefined =
      typedHost === undefined ? undefined : { host: typedHost, port: d.port ?? u?.port ?? (topology?.kind === 'sentinel' ? 26379 : 6379) };
    let entry: NodeAddress;
    let spec: ProfileSpec;
    const db = d.db ?? u?.db ?? 0;
    const tls = TlsOptions.parse(d.tls ?? {});
    if (u?.tls) tls.enabled = true;
    if (topology === undefined) {
      if (typed === undefined) {
        ctx.addIssue({ code: 'custom', path: ['host'], message: 'host is required (or give a redis:// URL)' });
        return z.NEVER;
      }
      entry = typed;
      spec = { name: d.name, host: entry.host, port: entry.port, db, tls };
    } else if (topology.kind === 'cluster') {
      const seeds = distinct([...(typed ? [typed] : []), ...(topology.seeds ?? [])]);
      if (seeds[0] === undefined) {
        ctx.addIssue({ code: 'custom', path: ['topology', 'seeds'], message: 'a cluster profile needs at least one seed node (host:port)' });
        return z.NEVER;
      }
      if (db !== 0) {
        ctx.addIssue({ code: 'custom', path: ['db'], message: 'db must be 0: a Redis Cluster has only DB 0 (SELECT is refused in cluster mode)' });
        return z.NEVER;
      }
      entry = seeds[0];
      spec = { name: d.name, host: entry.host, port: entry.port, db, tls, topology: { kind: 'cluster', seeds } };
    } else {
      const sentinels = distinct([...(typed ? [typed] : []), ...(topology.sentinels ?? [])]);
      if (sentinels[0] === undefined) {
        ctx.addIssue({ code: 'custom', path: ['topology', 'sentinels'], message: 'a sentinel profile needs at least one sentinel (host:port)' });
        return z.NEVER;
      }
      entry = sentinels[0];
      const t: Topology = { kind: 'sentinel', sentinels, masterName: topology.masterName };
      if (topology.sentinelUsername !== undefined) t.sentinelUsername = topology.sentinelUsername;
      if (topology.sentinelPassword !== undefined) t.sentinelPassword = topology.sentinelPassword;
      spec = { name: d.name, host: entry.host, port: entry.port, db, tls, topology: t };
    }
    const username = d.username ?? u?.username;
    const password = d.password ?? u?.password;
    if (username !== undefined) spec.username = username;
    if (password !== undefined) spec.password = password;
    if (d.analyst !== undefined) spec.analyst = d.analyst;
    if (d.ssh !== undefined) spec.ssh = d.ssh;
    if (d.tags !== undefined) spec.tags = normalizeTags(d.tags);
    return spec;
  });
export type ProfileDraft = z.input<typeof ProfileDraft>;

/** The same node listed twice (a URL and a seed naming one host:port) is listed once. */
function distinct(list: NodeAddress[]): NodeAddress[] {
  const seen = new Set<string>();
  return list.filter((a) => {
    const key = formatHostPort(a);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A normalised profile, as the Node side holds it (passwords included, never sent out).
 * `host`/`port` is where the profile starts: the server itself, a cluster's first
 * seed or the first sentinel. Credentials, DB and TLS are those of the data nodes.
 */
export interface ProfileSpec {
  name: string;
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: TlsOptions;
  /** Absent: a standalone server (or a replica), reached at host:port. */
  topology?: Topology;
  /** As typed in the form: how analysts reach it (the store keeps it apart from the connection). */
  analyst?: AnalystAccessDraft;
  /** Absent: Redis is reached directly. Passphrases and passwords included, never sent out. */
  ssh?: SshSpec;
  /** Tags or folder paths, normalised (normalizeTags); absent: none (on update: keep the stored ones). */
  tags?: string[];
}

export const ProfileSource = z.enum(['user', 'config', 'embedded']);

/** What leaves the Node side: no password, only whether one is set. */
export const ProfileView = z.object({
  id: ProfileId,
  name: z.string(),
  host: z.string(),
  port: z.number(),
  db: z.number(),
  username: z.string().optional(),
  hasPassword: z.boolean(),
  tls: TlsOptions,
  /** Absent: standalone. Never holds the sentinel password, only whether one is set. */
  topology: TopologyView.optional(),
  source: ProfileSource,
  /**
   * How analysts reach it: `own` (their own Redis user, `analystUsername`), `shared` (the
   * profile's own user, with all its rights: the page warns), `none` (analysts may not use it).
   */
  analystAccess: AnalystAccess,
  analystUsername: z.string().optional(),
  /** Whether the analysts' user has a password stored (never the password). */
  hasAnalystPassword: z.boolean(),
  /** The profile's definition cannot be edited or deleted here: it comes from REDIS_URL, the server config file or the embedded server. */
  definitionLocked: z.boolean(),
  /**
   * Its server's data must not be written (keys, key actions, bulk load, console writes, config,
   * clients): the embedded demo server, or a config-file profile marked `"readOnly": true`. The
   * server refuses those writes by the same rule (main/core/pool/readOnlyProfile.ts).
   */
  readOnlyData: z.boolean(),
  /** Absent: no SSH. Never holds a passphrase or password, only whether one is set. */
  ssh: SshView.optional(),
  /** Tags or folder paths; absent: none. */
  tags: z.array(z.string()).optional(),
});
export type ProfileView = z.output<typeof ProfileView>;

export const ConnectionStateName = z.enum(['idle', 'connecting', 'ready', 'reconnecting', 'error', 'closed']);
export type ConnectionStateName = z.output<typeof ConnectionStateName>;

export const ConnectionState = z.object({
  profileId: ProfileId,
  state: ConnectionStateName,
  /** Human text for error/reconnecting states (e.g. "connection refused at 10.0.0.5:6379"). */
  detail: z.string().optional(),
  at: z.number(),
});
export type ConnectionState = z.output<typeof ConnectionState>;

export const ErrorInfoSchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});

export const TestResult = z.object({
  ok: z.boolean(),
  latencyMs: z.number().optional(),
  /** The server's own version (valkey_version over redis_version) and name (server_name, 'redis' by default). */
  serverVersion: z.string().optional(),
  serverName: z.string().optional(),
  role: z.string().optional(),
  /** INFO's server_mode (Valkey) or redis_mode of the node answering: standalone, cluster, sentinel. */
  mode: z.string().optional(),
  /** Sentinel profiles: "host:port" of the master the sentinels name now. */
  master: z.string().optional(),
  /** Cluster profiles: "host:port" of every master serving slots. */
  masters: z.array(z.string()).optional(),
  /** Cluster profiles: CLUSTER INFO's cluster_state (ok or fail). */
  clusterState: z.string().optional(),
  error: ErrorInfoSchema.optional(),
  /** Through SSH: a host key refused (unknown, changed or revoked), for an ops user to check and pin. */
  sshHostKey: SshHostKey.optional(),
});
export type TestResult = z.output<typeof TestResult>;

export const connections = {
  'connections.list': call({
    summary: 'All connection profiles (without secrets) and whether passwords can be stored',
    role: 'analyst',
    input: Empty,
    output: z.object({
      profiles: z.array(ProfileView),
      passwordStorage: z.object({ available: z.boolean(), reason: z.string().optional() }),
    }),
  }),
  'connections.add': call({
    summary: 'Create a profile',
    role: 'ops',
    input: ProfileDraft,
    output: ProfileView,
  }),
  'connections.update': call({
    summary:
      'Replace a profile; an absent password (or sentinel password) keeps the stored one unless clearPassword, or the edit changes host, port, TLS or topology (then stored secrets are dropped unless typed again)',
    role: 'ops',
    input: z.object({ id: ProfileId, profile: ProfileDraft, clearPassword: z.boolean().default(false) }).strict(),
    output: ProfileView,
  }),
  'connections.remove': call({
    summary: 'Delete a profile and close its connections',
    role: 'ops',
    input: z.object({ id: ProfileId }).strict(),
    output: z.object({ removed: z.literal(true) }),
  }),
  'connections.test': call({
    summary: 'Connect, authenticate and PING: a saved profile by id, or an unsaved draft',
    role: 'analyst',
    // One object rather than a union, so a bad draft reports the exact field (draft.port, draft.url).
    // With both, a draft without a password borrows the saved profile's one (the edit form).
    input: z
      .object({ id: ProfileId.optional(), draft: ProfileDraft.optional() })
      .strict()
      .refine((v) => v.id !== undefined || v.draft !== undefined, 'give a profile id or a draft to test'),
    output: TestResult,
  }),
  'connections.state': stream({
    summary: 'Connection state per profile; the current state of every profile comes first',
    role: 'analyst',
    input: Empty,
    event: ConnectionState,
  }),
} as const;
