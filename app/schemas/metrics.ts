import * as z from 'zod';
import { call, stream } from '../define';
import { ProfileId } from './common';
import { Restriction, Restrictions } from './restrictions';

/** "host:port" as the node is reached (replicas as their master reports them). */
export const Address = z.string().min(3).max(300);

export const ReplicaLink = z.object({
  address: Address,
  state: z.string(),
  offset: z.number(),
  /** master_repl_offset − replica offset. */
  lagBytes: z.number(),
  /** Seconds since the replica's last ack (INFO's lag=). */
  lagSeconds: z.number(),
});

/** One poll of one node, derived from INFO ALL. Fields are absent when the node is down. */
export const NodeSample = z.object({
  address: Address,
  at: z.number(),
  /** The poll got an answer (the figures below are this poll's). */
  up: z.boolean(),
  /**
   * Why a poll got no answer, or 'up': 'slow' (no answer in time, the connection still open:
   * a busy or paused server), 'unreachable' (connection refused, closed or not made).
   * Absent from servers before issue 29: read as up ? 'up' : 'unreachable'.
   */
  status: z.enum(['up', 'slow', 'unreachable']).optional(),
  /** Set on the first answer of a new server run: its run_id differs from the last answer's. */
  restarted: z.boolean().optional(),
  error: z.string().optional(),
  /**
   * Commands this node refused (INFO for an ACL user without @dangerous): up, but the figures
   * they would have given are absent, to be shown as unknown with this line, never as 0.
   */
  restrictions: Restrictions.optional(),
  role: z.string().optional(),
  /** The server's own version (valkey_version over redis_version) and its name (server_name, 'redis' by default). */
  version: z.string().optional(),
  server: z.string().optional(),
  uptimeSeconds: z.number().optional(),
  traffic: z
    .object({
      opsPerSec: z.number(),
      inputKbps: z.number(),
      outputKbps: z.number(),
      /** keyspace_hits / (hits + misses) over the last interval; null when there were none. */
      hitRatio: z.number().nullable(),
      evictionsPerSec: z.number(),
      expirationsPerSec: z.number(),
    })
    .optional(),
  memory: z
    .object({
      used: z.number(),
      peak: z.number(),
      rss: z.number(),
      fragmentation: z.number(),
      maxmemory: z.number(),
      /** used / maxmemory × 100; null when maxmemory is 0 (no limit). */
      percentOfMax: z.number().nullable(),
    })
    .optional(),
  clients: z.object({ connected: z.number(), blocked: z.number(), rejected: z.number() }).optional(),
  /** subexpiry: keys whose hash fields expire (Redis 7.4+), where the server reports it. */
  keyspace: z.array(z.object({ db: z.number(), keys: z.number(), expires: z.number(), subexpiry: z.number().optional() })).optional(),
  /** INFO stats expired_subkeys: hash fields expired since the server started (Redis 7.4+); absent where not reported. */
  expiredSubkeys: z.number().optional(),
  persistence: z
    .object({
      rdbBgsaveInProgress: z.boolean(),
      rdbLastBgsaveStatus: z.string(),
      rdbLastBgsaveSeconds: z.number(),
      rdbChangesSinceLastSave: z.number(),
      rdbLastSaveTime: z.number(),
      aofEnabled: z.boolean(),
      aofRewriteInProgress: z.boolean(),
      aofLastRewriteStatus: z.string(),
      aofSizeBytes: z.number().optional(),
      latestForkUsec: z.number(),
    })
    .optional(),
  replication: z
    .object({
      role: z.string(),
      masterAddress: Address.optional(),
      masterLinkStatus: z.string().optional(),
      /** Seconds the link has been down (INFO master_link_down_since_seconds). */
      masterLinkDownSinceSeconds: z.number().optional(),
      masterReplOffset: z.number(),
      replicaOffset: z.number().optional(),
      replicas: z.array(ReplicaLink),
    })
    .optional(),
  topCommands: z.array(z.object({ command: z.string(), calls: z.number(), callsPerSec: z.number(), usecPerCall: z.number() })).optional(),
});
export type NodeSample = z.output<typeof NodeSample>;

export const TopologyNode = z.object({
  address: Address,
  role: z.string(),
  /** Where this node replicates from, when it is a replica. */
  master: Address.optional(),
  up: z.boolean(),
  /** Cluster masters: the slot ranges they serve, inclusive (CLUSTER NODES). */
  slots: z.array(z.tuple([z.number(), z.number()])).optional(),
  /** Cluster nodes: CLUSTER NODES flags other than the role (fail, fail?, handshake…). */
  flags: z.array(z.string()).optional(),
});

/** A cluster's own view of itself (CLUSTER INFO), the worst any reachable node reports. */
export const ClusterFacts = z.object({
  state: z.string(),
  slotsAssigned: z.number(),
  slotsOk: z.number(),
  slotsPfail: z.number(),
  slotsFail: z.number(),
  knownNodes: z.number(),
  /** Masters serving at least one slot (cluster_size). */
  size: z.number(),
  /** The node whose view this is (the first reporting the worst state). */
  reportedBy: Address,
});
export type ClusterFacts = z.output<typeof ClusterFacts>;

/** A sentinel of a sentinel profile, as the sentinels list each other (SENTINEL SENTINELS). */
export const SentinelEntry = z.object({ address: Address, healthy: z.boolean(), flags: z.array(z.string()) });

/**
 * A failover seen while watching: a node whose role changed between two polls
 * (replica -> master, master -> replica), or, for a sentinel profile, the
 * master the sentinels name switching (+switch-master; `previousMaster` set).
 */
export const FailoverEvent = z.object({
  id: z.string(),
  at: z.number(),
  address: Address,
  oldRole: z.string(),
  newRole: z.string(),
  source: z.enum(['poll', 'sentinel']),
  previousMaster: Address.optional(),
  message: z.string(),
});
export type FailoverEvent = z.output<typeof FailoverEvent>;

export const AlertKind = z.enum([
  'node_unreachable',
  'node_slow',
  'node_restarted',
  'replica_link_down',
  'replication_lag',
  'memory_high',
  'rejected_connections',
  'bgsave_failed',
  'evictions',
  'cluster_state',
  'slots_uncovered',
  'failover',
]);

export const Alert = z.object({
  id: z.string(),
  kind: AlertKind,
  severity: z.enum(['warning', 'critical']),
  address: Address,
  message: z.string(),
  since: z.number(),
  /** Set when the condition cleared; resolved alerts are kept a while for the record. */
  resolvedAt: z.number().optional(),
});
export type Alert = z.output<typeof Alert>;

/** Columnar history of one node, for charts: one entry per poll; null where the node was down (a gap). */
export const NodeHistory = z.object({
  address: Address,
  at: z.array(z.number()),
  opsPerSec: z.array(z.number().nullable()),
  usedMemory: z.array(z.number().nullable()),
  clients: z.array(z.number().nullable()),
  inputKbps: z.array(z.number().nullable()),
  outputKbps: z.array(z.number().nullable()),
  /** Replicas only: bytes behind their master. */
  lagBytes: z.array(z.number().nullable()),
  /**
   * Per entry, why it holds no values: 'down' (polled, the node was unreachable: connection
   * refused or lost), 'slow' (polled, no answer in time while the connection stayed open) or
   * 'unrecorded' (nobody polled from this entry to the next: a gap in the record, not
   * an outage); null for a recorded poll. Absent when there is no gap.
   */
  gaps: z.array(z.enum(['down', 'slow', 'unrecorded']).nullable()).optional(),
  /** Times of the entries where the node answered from a new server run (run_id changed). Absent when none. */
  restarts: z.array(z.number()).optional(),
});
export type NodeHistory = z.output<typeof NodeHistory>;

export const MetricsEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('history'), nodes: z.array(NodeHistory) }),
  z.object({
    kind: z.literal('topology'),
    nodes: z.array(TopologyNode),
    at: z.number(),
    /** Absent from servers before issue 10: read as standalone. */
    mode: z.enum(['standalone', 'cluster', 'sentinel']).optional(),
    cluster: ClusterFacts.optional(),
    sentinels: z.array(SentinelEntry).optional(),
    /** Why the last discovery failed (the nodes are then the ones known before). */
    error: z.string().optional(),
  }),
  z.object({ kind: z.literal('samples'), samples: z.array(NodeSample), at: z.number() }),
  z.object({ kind: z.literal('alert'), alert: Alert }),
  /** Sent as each failover is seen; a new watcher gets the recent ones (bounded) after the history. */
  z.object({ kind: z.literal('failover'), failover: FailoverEvent }),
]);
export type MetricsEvent = z.output<typeof MetricsEvent>;

export const WatchInput = z
  .object({
    profileId: ProfileId,
    intervalMs: z.number().int().min(250).max(60_000).default(1000),
    /** Alert thresholds. */
    lagBytesThreshold: z
      .number()
      .int()
      .min(0)
      .default(1024 * 1024),
    lagSecondsThreshold: z.number().int().min(0).default(10),
  })
  .strict();

export const OpsActionName = z.enum(['bgsave', 'bgrewriteaof']);
export const OpsActionResult = z.object({
  action: OpsActionName,
  address: Address,
  startedAt: z.number(),
  seconds: z.number(),
  status: z.string(),
  /** Size of the resulting RDB or AOF file, when INFO/CONFIG tell it. */
  sizeBytes: z.number().optional(),
});

/** BGSAVE or BGREWRITEAOF refused (renamed away by a managed service, or an ACL user without @admin): nothing ran. */
export const OpsActionRefused = z.object({ action: OpsActionName, address: Address, refused: Restriction });

export const SlowlogEntry = z.object({
  id: z.number(),
  at: z.number(),
  durationUs: z.number(),
  args: z.array(z.string()),
  /**
   * Arguments withheld from this session: analysts get the command and its key
   * (or subcommand) only, since the rest are values. Absent for ops.
   */
  argsHidden: z.number().int().min(0).optional(),
  client: z.string(),
  clientName: z.string(),
});

/** An entry of Valkey 8.1's COMMANDLOG large-request or large-reply: its size in bytes where SLOWLOG has a duration. */
export const CommandlogEntry = SlowlogEntry.omit({ durationUs: true }).extend({ bytes: z.number() });
/** A log's newest entries, and how many it holds (COMMANDLOG LEN). */
export const CommandlogList = z.object({ length: z.number(), entries: z.array(CommandlogEntry) });
export type CommandlogList = z.output<typeof CommandlogList>;
export const Commandlogs = z.object({ largeRequest: CommandlogList, largeReply: CommandlogList });
export type Commandlogs = z.output<typeof Commandlogs>;

/** A node's latency-monitor-threshold turned on for a while by ops: what was set, what goes back, when. */
export const LatencyTimed = z.object({ address: Address, setMs: z.number(), previousMs: z.number(), until: z.number() });
/** How the last turn-on ended: put back, left alone because the value found (`foundMs`) was someone else's, or `error` (it may still be on). */
export const LatencyEnded = z.object({
  address: Address,
  at: z.number(),
  restored: z.boolean(),
  foundMs: z.number().optional(),
  previousMs: z.number(),
  error: z.string().optional(),
});
export const LatencyMonitorStatus = z.object({
  /** Absent when CONFIG GET is refused (then `restriction` says so): unknown, never 0. */
  thresholdMs: z.number().optional(),
  restriction: Restriction.optional(),
  timed: LatencyTimed.optional(),
  ended: LatencyEnded.optional(),
});

export const metrics = {
  'metrics.watch': stream({
    summary:
      "Live INFO of a profile and every node discovered from it (a cluster's every node, a sentinel set's master and replicas): history first, then topology, samples, alerts and failovers",
    role: 'analyst',
    input: WatchInput,
    event: MetricsEvent,
  }),
  'metrics.alerts': stream({
    summary: 'Alerts of a profile: the active ones first, then every raise and resolve',
    role: 'analyst',
    input: z.object({ profileId: ProfileId }).strict(),
    event: Alert,
  }),
  'metrics.slowlog': call({
    summary: 'SLOWLOG GET and LATENCY LATEST of one node, and its COMMANDLOG large-request and large-reply logs where it has them (Valkey 8.1+)',
    role: 'analyst',
    input: z.object({ profileId: ProfileId, address: Address.optional(), count: z.number().int().min(1).max(128).default(32) }).strict(),
    output: z.object({
      slowlog: z.array(SlowlogEntry),
      latency: z.array(z.object({ event: z.string(), at: z.number(), latestMs: z.number(), maxMs: z.number() })),
      /** Absent where COMMAND INFO says the node has no COMMANDLOG, or it is refused. */
      commandlog: Commandlogs.optional(),
      /** SLOWLOG or LATENCY refused: that table is empty because it could not be read, not because nothing was slow. */
      restrictions: Restrictions.optional(),
    }),
  }),
  'metrics.action': call({
    summary: 'Run BGSAVE or BGREWRITEAOF on a node and time it to the end, with the resulting file size',
    role: 'ops',
    input: z.object({ profileId: ProfileId, address: Address, action: OpsActionName }).strict(),
    /** A refusal (asked beforehand or met at run time) is an answer, the page's one line, not an error. */
    output: z.union([OpsActionResult, OpsActionRefused]),
  }),
  'metrics.latencyMonitor': call({
    summary: "Whether a node records latency events (its latency-monitor-threshold), and ops' running or last turn-on for a while",
    role: 'analyst',
    input: z.object({ profileId: ProfileId, address: Address.optional() }).strict(),
    output: LatencyMonitorStatus,
  }),
  'metrics.latencyMonitorOn': call({
    summary: 'Turn latency monitoring on for a while (CONFIG SET latency-monitor-threshold); the previous value is put back at the end',
    role: 'ops',
    input: z
      .object({
        profileId: ProfileId,
        address: Address.optional(),
        thresholdMs: z.number().int().min(1).max(60_000).default(10),
        minutes: z.union([z.literal(10), z.literal(30), z.literal(60)]),
      })
      .strict(),
    output: LatencyTimed,
  }),
  'metrics.latencyMonitorOff': call({
    summary: 'End a latency-monitor turn-on now: the previous value is put back unless someone else changed it meanwhile',
    role: 'ops',
    input: z.object({ profileId: ProfileId }).strict(),
    output: LatencyEnded,
  }),
  'metrics.actions': call({
    summary: 'The recent ops actions of a profile, newest first',
    role: 'analyst',
    input: z.object({ profileId: ProfileId, address: Address.optional() }).strict(),
    /** `restrictions`: the actions this node (default: the profile's own) may not run, asked with ACL DRYRUN / COMMAND INFO. */
    output: z.object({ actions: z.array(OpsActionResult), restrictions: Restrictions.optional() }),
  }),
} as const;
