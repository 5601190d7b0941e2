import type { Redis } from 'ioredis';
import type { ConnectionState, ProfileSpec, ProfileView, TestResult } from '../../../app/schemas/connections';

export type { ConnectionState, ProfileSpec, ProfileView, TestResult };

/** A Redis ACL user to connect as instead of the profile's own. */
export interface Credentials {
  username: string;
  password?: string;
}

/** A stored profile: the spec plus identity and where it came from. */
export interface StoredProfile {
  id: string;
  source: 'user' | 'config' | 'embedded';
  spec: ProfileSpec;
  /** Config profiles only: what analysts' sessions connect as; ops keep `spec`'s credentials. */
  analyst?: Credentials;
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
  /** The shared multiplexed connection for (profile, db); created on first use. */
  shared(profileId: string, db?: number): Promise<Redis>;
  /** A short-timeout, no-offline-queue connection for INFO polling. */
  monitoring(profileId: string, db?: number): Promise<Redis>;
  /**
   * A pooled monitoring connection (short timeout, no offline queue, reconnect
   * with backoff) to another node of the profile, e.g. a replica: same
   * credentials and TLS, host:port replaced. One per (profile, address); the
   * profile's own address gets monitoring(). Callers pass only addresses that
   * the profile's own servers reported, never one typed by a user.
   */
  node(profileId: string, address: string): Promise<Redis>;
  /** "host:port" the profile points at. Throws NOT_FOUND for an unknown profile. */
  address(profileId: string): string;
  /** A fresh connection the caller owns; release() closes it. */
  dedicated(profileId: string, opts: DedicatedOptions): Promise<{ redis: Redis; release(): Promise<void> }>;
  /** Connect with a spec that is not (yet) saved, AUTH, PING, INFO server; never throws. */
  test(spec: ProfileSpec): Promise<TestResult>;
  /** Close every connection of a profile (after edit or removal). */
  closeProfile(profileId: string): Promise<void>;
  onState(cb: (s: ConnectionState) => void): () => void;
  states(): ConnectionState[];
  shutdown(): Promise<void>;
}
