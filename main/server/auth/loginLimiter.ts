import { isIPv6 } from 'node:net';
import { USER_NAME } from './users';

export interface BackoffRule {
  /** Attempts allowed before backoff starts. */
  free: number;
  /** First wait; doubles with each further attempt. */
  baseMs: number;
  maxMs: number;
  /** Forgotten this long after its last attempt. */
  forgetMs: number;
}

export interface LoginLimiterOptions {
  /** One user name from one address. */
  pair?: Partial<BackoffRule>;
  /** One address, whatever the user names: looser, so one user's guesser does not lock out the others behind a NAT. */
  address?: Partial<BackoffRule>;
  /** Sign-ins checked at once for one user name, and from one address; more are refused without hashing. */
  busyPerUser?: number;
  busyPerAddress?: number;
  /** Most keys tracked per rule; the least recently tried are forgotten first. */
  maxKeys?: number;
  now?: () => number;
}

export type Admission = { ok: true; settle(signedIn: boolean): void } | { ok: false; retryAfterMs: number; reason: 'backoff' | 'busy' };

interface Entry {
  attempts: number;
  lastAt: number;
}

const PAIR: BackoffRule = { free: 5, baseMs: 1000, maxMs: 15 * 60_000, forgetMs: 24 * 3600_000 };
const ADDRESS: BackoffRule = { free: 30, baseMs: 1000, maxMs: 5 * 60_000, forgetMs: 3600_000 };
const BUSY_RETRY_MS = 1000;

/**
 * Sign-in rate limiting. Exponential backoff per (user name, address), so a guesser locks out
 * only itself, plus a looser one per address, so one address cannot try many names. An attempt
 * is counted when it is admitted, before the scrypt, and only a few run at once per user name
 * and per address: parallel guesses cannot all be hashed before the first failure is counted.
 * Memory is bounded.
 */
export class LoginLimiter {
  private readonly pairs = new Map<string, Entry>();
  private readonly addresses = new Map<string, Entry>();
  private readonly busy = new Map<string, number>();
  private readonly pair: BackoffRule;
  private readonly address: BackoffRule;
  private readonly o: { busyPerUser: number; busyPerAddress: number; maxKeys: number; now: () => number };

  constructor(o: LoginLimiterOptions = {}) {
    this.pair = { ...PAIR, ...o.pair };
    this.address = { ...ADDRESS, ...o.address };
    this.o = { busyPerUser: 2, busyPerAddress: 4, maxKeys: 50_000, now: Date.now, ...o };
  }

  /** Admit one attempt, counted now; the caller settles it after checking the password. */
  begin(username: string, ip: string): Admission {
    const t = this.o.now();
    const addr = addressKey(ip);
    // Names that cannot exist share one key, so junk names cannot fill the table.
    const user = USER_NAME.test(username) ? username : '(invalid)';
    const pairKey = `${user} ${addr}`;
    const wait = Math.max(waitOf(this.pairs, pairKey, this.pair, t), waitOf(this.addresses, addr, this.address, t));
    if (wait > 0) return { ok: false, retryAfterMs: wait, reason: 'backoff' };
    const userBusy = `user ${user}`;
    const addrBusy = `addr ${addr}`;
    if ((this.busy.get(userBusy) ?? 0) >= this.o.busyPerUser || (this.busy.get(addrBusy) ?? 0) >= this.o.busyPerAddress) {
      return { ok: false, retryAfterMs: BUSY_RETRY_MS, reason: 'busy' };
    }
    this.count(this.pairs, pairKey, t);
    const address = this.count(this.addresses, addr, t);
    this.take(userBusy, 1);
    this.take(addrBusy, 1);
    let settled = false;
    return {
      ok: true,
      settle: (signedIn) => {
        if (settled) return;
        settled = true;
        this.take(userBusy, -1);
        this.take(addrBusy, -1);
        if (!signedIn) return;
        this.pairs.delete(pairKey);
        // Only this attempt is taken back: one account's password must not reset its address's
        // count, or it would buy fresh guesses at every other name.
        address.attempts = Math.max(0, address.attempts - 1);
      },
    };
  }

  private count(map: Map<string, Entry>, key: string, t: number): Entry {
    const e = map.get(key) ?? { attempts: 0, lastAt: t };
    e.attempts++;
    e.lastAt = t;
    // Re-inserted so map order is least recently tried first.
    map.delete(key);
    map.set(key, e);
    if (map.size > this.o.maxKeys) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    return e;
  }

  private take(key: string, n: 1 | -1): void {
    const left = (this.busy.get(key) ?? 0) + n;
    if (left > 0) this.busy.set(key, left);
    else this.busy.delete(key);
  }
}

function waitOf(map: Map<string, Entry>, key: string, rule: BackoffRule, t: number): number {
  const e = map.get(key);
  if (e === undefined) return 0;
  if (t - e.lastAt > rule.forgetMs) {
    map.delete(key);
    return 0;
  }
  const over = e.attempts - rule.free;
  if (over <= 0) return 0;
  return Math.max(0, e.lastAt + Math.min(rule.maxMs, rule.baseMs * 2 ** (over - 1)) - t);
}

/**
 * The address an attempt is counted under. IPv6 gives one host a whole /64, so its addresses
 * count as their /64; an IPv4 address mapped into IPv6 (a dual-stack listener) counts as itself.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] !== undefined) return mapped[1];
  const bare = ip.split('%')[0] ?? ip;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const h = groups(head);
  const rest = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - rest.length).fill('0'), ...rest];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
