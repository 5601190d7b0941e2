export interface LoginLimiterOptions {
  /** Failures allowed before backoff starts. */
  freeFailures?: number;
  /** First lockout; doubles with each further failure. */
  baseMs?: number;
  maxMs?: number;
  /** Most keys tracked; the oldest are forgotten first. */
  maxKeys?: number;
  now?: () => number;
}

interface Entry {
  failures: number;
  until: number;
}

/**
 * Login rate limiting with exponential backoff, keyed separately by user name
 * and by client address, so guessing one user's password from many addresses
 * and many users' passwords from one address are both slowed. Bounded memory.
 */
export class LoginLimiter {
  private readonly entries = new Map<string, Entry>();
  private readonly o: Required<Omit<LoginLimiterOptions, 'now'>> & { now: () => number };

  constructor(o: LoginLimiterOptions = {}) {
    this.o = { freeFailures: 5, baseMs: 1000, maxMs: 15 * 60_000, maxKeys: 50_000, now: Date.now, ...o };
  }

  /** Milliseconds until any of `keys` may try again; 0 when all may. */
  retryAfter(keys: string[]): number {
    const t = this.o.now();
    let wait = 0;
    for (const k of keys) {
      const e = this.entries.get(k);
      if (e !== undefined && e.until > t) wait = Math.max(wait, e.until - t);
    }
    return wait;
  }

  fail(keys: string[]): void {
    const t = this.o.now();
    for (const k of keys) {
      const e = this.entries.get(k) ?? { failures: 0, until: 0 };
      e.failures++;
      const over = e.failures - this.o.freeFailures;
      if (over > 0) e.until = t + Math.min(this.o.maxMs, this.o.baseMs * 2 ** (over - 1));
      this.entries.delete(k);
      this.entries.set(k, e);
      if (this.entries.size > this.o.maxKeys) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
    }
  }

  succeed(keys: string[]): void {
    for (const k of keys) this.entries.delete(k);
  }
}
