export interface RateLimitOptions {
  /** Sustained calls and subscriptions per second, per user. */
  perSecond: number;
  /** How many may come at once after a quiet spell. */
  burst: number;
  /** Most users tracked; the least recently seen are forgotten first. */
  maxUsers?: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per user, shared by all of that user's sockets, so one
 * analyst cannot flood the server (and Redis behind it) from many tabs.
 */
export class CallRateLimit {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;

  constructor(private readonly o: RateLimitOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Take one token; false when the user is over the limit. */
  take(user: string): boolean {
    const t = this.now();
    const b = this.buckets.get(user) ?? { tokens: this.o.burst, at: t };
    b.tokens = Math.min(this.o.burst, b.tokens + ((t - b.at) / 1000) * this.o.perSecond);
    b.at = t;
    this.buckets.delete(user);
    this.buckets.set(user, b);
    if (this.buckets.size > (this.o.maxUsers ?? 10_000)) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
