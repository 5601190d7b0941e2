import type { Cluster, Redis } from 'ioredis';
import type { ConnectionState as ProfileState, ProfileSpec, ProfileView, TestResult } from '../../../app/schemas/connections';

export type { ProfileSpec, ProfileView, TestResult };

/**
 * A connection's state as the pool reports it: `profileId` is the pool's connection id (a
 * profile's id, or its analyst variant's), which ProfileStore.shownAs turns into the
 * ProfileId a session knows before it leaves the Node side.
 */
export type ConnectionState = Omit<ProfileState, 'profileId'> & { profileId: string };

/** How a profile reaches its data: one server, a cluster, or the master the sentinels name. */
export type TopologyKind = 'standalone' | 'cluster' | 'sentinel';

/** One node of a profile's deployment, as the servers themselves report it. */
export interface TopologyNode {
  /** "host:port" as the cluster or the sentinels announce it ("[v6]:port" for IPv6). */
  address: string;
  role: 'master' | 'replica' | 'sentinel';
  /** Replicas: their master's address. */
  master?: string;
  /** Cluster nodes: the node id (CLUSTER NODES' first field). */
  id?: string;
  /** Cluster masters: the slot ranges they serve, inclusive, e.g. [[0, 5460]]. */
  slots?: Array<[number, number]>;
  /** The server's flags for the node (cluster: fail, fail?, handshake, noaddr…; sentinel: s_down, o_down, disconnected…). */
  flags: string[];
  /** False when a flag says the node is failing or unreachable. */
  healthy: boolean;
}

/** A master a job can open its own connection to (a bulk pipe, a SCAN, MONITOR). */
export interface MasterNode {
  /** "host:port" */
  address: string;
  /** The profile's credentials, DB and TLS aimed at this node alone (no topology). */
  spec: ProfileSpec;
  /** Cluster masters: the slot ranges they serve, inclusive. */
  slots?: Array<[number, number]>;
}

/** A Redis ACL user to connect as instead of the profile's own. */
export interface Credentials {
  username: string;
  password?: string;
}

/** A stored profile: the spec plus identity and where it came from. */
export interface StoredProfile {
  /** Its ProfileId, or the connection id of its analyst variant (roleProfiles.ts). */
  id: string;
  source: 'user' | 'config' | 'embedded';
  spec: ProfileSpec;
  /** What analysts' sessions connect as (from the config file or the form); ops keep `spec`'s credentials. */
  analyst?: Credentials;
  /** Analysts may not use this profile at all (set in the form). */
  analystsRefused?: boolean;
  /** The config file marks it `"readOnly": true`: its server must not be written (readOnlyProfile.ts). */
  readOnlyData?: boolean;
}

/**
 * Where passwords live. Desktop: Electron safeStorage. Web build: env or secret
 * files referenced by the config, or an AES key from the environment.
 */
export interface SecretBox {
  /** Whether a password typed into the UI can be persisted, and if not, why. */
  availability(): { available: boolean; reason?: string };
  seal(plain: string): string;
  open(sealed: string): string;
}

/** What a connection is for. Shared connections carry ordinary calls; the rest are dedicated. */
export type ConnectionPurpose = 'shared' | 'monitoring' | 'monitor' | 'bulk' | 'blocking';

export interface DedicatedOptions {
  db?: number;
  purpose: Exclude<ConnectionPurpose, 'shared'>;
  /**
   * "host:port" of another node of the profile (a replica, its master), reached
   * with the profile's credentials and TLS. Absent: the profile's own address.
   */
  address?: string;
}

export interface PoolApi {
  /**
   * The shared multiplexed connection for (profile, db); created on first use.
   * Sentinel profiles: to the current master, followed across failovers.
   * Cluster profiles: refused with UNSUPPORTED (one node is not the cluster); use cluster().
   */
  shared(connectionId: string, db?: number): Promise<Redis>;
  /** A short-timeout, no-offline-queue connection for INFO polling. Cluster profiles: as shared(). */
  monitoring(connectionId: string, db?: number): Promise<Redis>;
  /** standalone, cluster or sentinel. Throws NOT_FOUND for an unknown profile. */
  topology(connectionId: string): TopologyKind;
  /**
   * Cluster profiles only (else UNSUPPORTED): the pooled ioredis Cluster, which
   * routes each command by its key's slot and follows MOVED/ASK. `shared`: with
   * a bounded offline queue; `monitoring`: short timeouts, no offline queue.
   * Reads go to masters.
   */
  cluster(connectionId: string, kind?: 'shared' | 'monitoring'): Promise<Cluster>;
  /** Cluster profiles only: a Cluster client the caller owns (no reconnect); release() closes it. */
  dedicatedCluster(connectionId: string, purpose: Exclude<ConnectionPurpose, 'shared'>): Promise<{ cluster: Cluster; release(): Promise<void> }>;
  /**
   * The masters a job writes to or reads from, each as a plain spec for its own
   * connections: a cluster's masters serving slots (from CLUSTER NODES, failing
   * ones left out), the master the sentinels name now, or the profile's own
   * server. Asked afresh on every call: after a failover it names the new master.
   */
  masters(connectionId: string): Promise<MasterNode[]>;
  /**
   * Every node with its role: a cluster's masters and replicas (CLUSTER NODES),
   * a sentinel set's master, replicas and sentinels (SENTINEL MASTER/REPLICAS/
   * SENTINELS), or a standalone server and the replicas its INFO lists.
   */
  nodes(connectionId: string): Promise<TopologyNode[]>;
  /**
   * A pooled monitoring connection (short timeout, no offline queue, reconnect
   * with backoff) to another node of the profile, e.g. a replica: same
   * credentials and TLS, host:port replaced. One per (profile, address); the
   * profile's own address gets monitoring(). Every node of a cluster profile
   * is reached directly (no seed counts as its own). Callers pass only
   * addresses that the profile's own servers reported (nodes()), never one
   * typed by a user.
   */
  node(connectionId: string, address: string): Promise<Redis>;
  /**
   * "host:port" monitoring starts its discovery at: the profile's server, or a
   * sentinel profile's first sentinel (node() of that address is the monitoring
   * connection, which reaches the master through the sentinels). Throws
   * NOT_FOUND for an unknown profile, UNSUPPORTED for a cluster profile (one
   * seed's replication tree is one shard, not the cluster).
   */
  address(connectionId: string): string;
  /**
   * A fresh connection the caller owns; release() closes it. Cluster profiles
   * need `address` (a node from nodes()); without one it is UNSUPPORTED.
   */
  dedicated(connectionId: string, opts: DedicatedOptions): Promise<{ redis: Redis; release(): Promise<void> }>;
  /**
   * Connect with a spec that is not (yet) saved, AUTH, PING, INFO server; never
   * throws. Sentinel: names the current master; cluster: its masters and state.
   */
  test(spec: ProfileSpec): Promise<TestResult>;
  /** Close every connection of a profile (after edit or removal). */
  closeProfile(connectionId: string): Promise<void>;
  onState(cb: (s: ConnectionState) => void): () => void;
  states(): ConnectionState[];
  shutdown(): Promise<void>;
}
