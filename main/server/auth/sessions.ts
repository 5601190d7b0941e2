import { randomBytes } from 'node:crypto';
import type { Role } from '../../../app/define';

export interface WebSession {
  user: string;
  role: Role;
  /** The user's stamp when signed in (userStamp): the session lives only while it is still the user's. */
  stamp: string;
  createdAt: number;
  lastSeen: number;
}

export interface SessionStoreOptions {
  /** Signed-in time at most, whatever the activity. */
  absoluteMs?: number;
  /** Ends after this long without a request. */
  idleMs?: number;
  /** Most live sessions; the least recently seen goes first. */
  max?: number;
  now?: () => number;
}

/**
 * Server-side sessions behind an opaque random token (the cookie holds only the
 * token). In memory: a restart signs everyone out, which is the safe direction.
 */
export class SessionStore {
  private readonly byToken = new Map<string, WebSession>();
  private readonly absoluteMs: number;
  private readonly idleMs: number;
  private readonly max: number;
  private readonly now: () => number;

  constructor(o: SessionStoreOptions = {}) {
    this.absoluteMs = o.absoluteMs ?? 12 * 3600_000;
    this.idleMs = o.idleMs ?? 3600_000;
    this.max = o.max ?? 10_000;
    this.now = o.now ?? Date.now;
  }

  create(user: string, role: Role, stamp: string): string {
    const token = randomBytes(32).toString('base64url');
    const t = this.now();
    if (this.byToken.size >= this.max) {
      // Map order is insertion order and get() re-inserts: the first is the least recently seen.
      const oldest = this.byToken.keys().next().value;
      if (oldest !== undefined) this.byToken.delete(oldest);
    }
    this.byToken.set(token, { user, role, stamp, createdAt: t, lastSeen: t });
    return token;
  }

  /** The live session of a token, refreshed; undefined when unknown or expired (and then forgotten). */
  get(token: string | undefined): WebSession | undefined {
    if (token === undefined || token === '') return undefined;
    const s = this.byToken.get(token);
    if (s === undefined) return undefined;
    const t = this.now();
    if (t - s.createdAt > this.absoluteMs || t - s.lastSeen > this.idleMs) {
      this.byToken.delete(token);
      return undefined;
    }
    s.lastSeen = t;
    this.byToken.delete(token);
    this.byToken.set(token, s);
    return s;
  }

  delete(token: string | undefined): void {
    if (token !== undefined) this.byToken.delete(token);
  }

  /** End every session `revoked` says no to; returns their tokens (to close their WebSockets). */
  deleteWhere(revoked: (s: WebSession) => boolean): string[] {
    const out: string[] = [];
    for (const [k, s] of this.byToken) {
      if (!revoked(s)) continue;
      this.byToken.delete(k);
      out.push(k);
    }
    return out;
  }

  get size(): number {
    return this.byToken.size;
  }
}
